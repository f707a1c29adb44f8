"""Genomes as OpenSpiel bots: ``Bot(genome, game)`` is a ``pyspiel.Bot``
that plays OpenSpiel's ``tic_tac_toe``, ``connect_four``, ``othello`` and
``checkers`` with a bebete genome (its search included), so that
``pyspiel.evaluate_bots`` runs it against MCTS, random or any other bot.

An OpenSpiel state is turned into bebete's position (the moves so far, in
bebete's notation) by replaying its history, and bebete's move is turned
back into OpenSpiel's action:

- tic-tac-toe: action ``a`` (row-major from the top left, 0–8) is bebete's
  cell ``a + 1``;
- Connect-Four: action ``c`` (column 0–6 from the left) is bebete's column
  ``c + 1``;
- Othello: action ``r·8 + c`` is the square of column ``c`` (a–h) and row
  ``r + 1`` (row 1 at the top, as in bebete), action 64 is ``pass``;
- checkers: OpenSpiel's first player (``o``, starting on rows 1–3) is
  bebete's Black (squares 1–12); the board is turned half a turn, so
  OpenSpiel's square ``a1`` is bebete's square 4 and ``h8`` square 29. The
  position is the board at the start of the turn, as a FEN string
  (``B:W21,22,…:B1,2,…``), so that bebete's draw rules, which need the
  game's history, do not end a game OpenSpiel goes on with. A capture of
  several jumps is one bebete move (``9x18x27``) and one OpenSpiel action
  per jump.

Rule differences: OpenSpiel's checkers ends a game as a draw after 40
moves without a capture, where bebete follows the English rules (a draw
after 40 moves of each side with no capture and no man moved, or at a
position's third occurrence); a game the bot plays in OpenSpiel ends by
OpenSpiel's rules. The other three games have the same rules in both.
"""

from __future__ import annotations

from typing import Union

import pyspiel

from . import Genome, ObservedGenome, PathLike, load

#: OpenSpiel's game names and bebete's.
GAMES = {
    "tic_tac_toe": "tictactoe",
    "connect_four": "connect4",
    "othello": "othello",
    "checkers": "checkers",
}

_FILES = "abcdefgh"


def _checkers_square(name: str) -> int:
    """bebete's number (1–32) of OpenSpiel's square ``name`` (``a1``…)."""
    column, rank = _FILES.index(name[0]), int(name[1])
    row, col = rank - 1, 7 - column
    return row * 4 + col // 2 + 1


def _checkers_name(square: int) -> str:
    """OpenSpiel's name of bebete's square ``square`` (1–32)."""
    row, index = divmod(square - 1, 4)
    col = 2 * index + (1 if row % 2 == 0 else 0)
    return f"{_FILES[7 - col]}{row + 1}"


def _is_jump(text: str) -> bool:
    return abs(int(text[1]) - int(text[3])) == 2


class _Mapping:
    """One game's translation between OpenSpiel and bebete."""

    separator = ""

    def token(self, text: str, action: int) -> str:
        raise NotImplementedError

    def action(self, state, move: str, hops) -> int:
        raise NotImplementedError


class _Cells(_Mapping):
    """Tic-tac-toe and Connect-Four: action ``a`` is bebete's ``a + 1``."""

    def token(self, text, action):
        return str(action + 1)

    def action(self, state, move, hops):
        return int(move) - 1


class _Othello(_Mapping):
    separator = " "

    def token(self, text, action):
        if action == 64:
            return "pass"
        return f"{_FILES[action % 8]}{action // 8 + 1}"

    def action(self, state, move, hops):
        if move == "pass":
            return 64
        return (int(move[1:]) - 1) * 8 + _FILES.index(move[0])


class _Checkers(_Mapping):
    def action(self, state, move, hops):
        squares = [int(s) for s in move.replace("-", "x").split("x")]
        names = [_checkers_name(s) for s in squares]
        step = len(hops)
        wanted = names[step] + names[step + 1]
        for action in state.legal_actions():
            if state.action_to_string(state.current_player(), action) == wanted:
                return action
        raise ValueError(f"bebete's move {move} is not legal in OpenSpiel here ({wanted})")

    @staticmethod
    def move_of(turn) -> str:
        """bebete's move of a turn's OpenSpiel action texts."""
        squares = [_checkers_square(turn[0][:2])] + [_checkers_square(t[2:]) for t in turn]
        sep = "x" if _is_jump(turn[0]) else "-"
        return sep.join(str(s) for s in squares)

    @staticmethod
    def fen(state) -> str:
        """The board of ``state`` (OpenSpiel's text of it: ``o`` and ``8``
        the first player's men and kings, ``+`` and ``*`` the second's) as
        bebete's FEN, the first player being Black."""
        black, white = [], []
        for line in str(state).splitlines():
            if not line or not line[0].isdigit():
                continue
            rank, cells = line[0], line[1:9]
            for column, cell in enumerate(cells):
                if cell == ".":
                    continue
                square = _checkers_square(f"{_FILES[column]}{rank}")
                king = "K" if cell in "8*" else ""
                (black if cell in "o8" else white).append((square, f"{king}{square}"))
        side = "B" if state.current_player() == 0 else "W"

        def listed(pieces):
            return ",".join(text for _, text in sorted(pieces))

        return f"{side}:W{listed(white)}:B{listed(black)}"


_MAPPINGS = {
    "tic_tac_toe": _Cells(),
    "connect_four": _Cells(),
    "othello": _Othello(),
    "checkers": _Checkers(),
}


def _steps(state):
    """Each action so far: (player, action, OpenSpiel's text of it)."""
    replay = state.get_game().new_initial_state()
    steps = []
    for action in state.history():
        player = replay.current_player()
        steps.append((player, action, replay.action_to_string(player, action)))
        replay.apply_action(action)
    return steps


def position(state, steps=None) -> str:
    """bebete's position of an OpenSpiel state of one of the four games:
    the moves so far in bebete's notation, or for checkers the board at the
    start of the turn (a capture of several jumps under way is left out).
    ``steps``: the state's history as ``_steps`` replays it, when known."""
    name = state.get_game().get_type().short_name
    if name not in _MAPPINGS:
        raise ValueError(f"{name}: bebete plays {', '.join(GAMES)}")
    steps = _steps(state) if steps is None else steps
    if name == "checkers":
        return _Checkers.fen(_turn_start(state, steps))
    mapping = _MAPPINGS[name]
    return mapping.separator.join(mapping.token(text, action) for _, action, text in steps)


def _hops(state, steps) -> list:
    """The jumps already made in a checkers capture under way."""
    hops = []
    if _capturing(state, steps):
        player = state.current_player()
        for who, _, text in reversed(steps):
            if who != player or not _is_jump(text):
                break
            hops.append(text)
    return hops[::-1]


def _turn_start(state, steps):
    """``state`` as it was at the start of its turn."""
    hops = len(_hops(state, steps))
    if hops == 0:
        return state
    start = state.get_game().new_initial_state()
    for action in state.history()[:-hops]:
        start.apply_action(action)
    return start


def _capturing(state, steps) -> bool:
    """Whether a checkers capture is under way: the last action was a jump
    by the player to move, who must jump again."""
    return (
        state.get_game().get_type().short_name == "checkers"
        and bool(steps)
        and _is_jump(steps[-1][2])
        and steps[-1][0] == state.current_player()
    )


def action_of(state, move: str, steps=None) -> int:
    """OpenSpiel's action for bebete's ``move`` in ``state`` (for a capture
    of several jumps, the next jump); ``steps`` as for ``position``."""
    name = state.get_game().get_type().short_name
    if name != "checkers":
        hops = []
    else:
        hops = _hops(state, _steps(state) if steps is None else steps)
    return _MAPPINGS[name].action(state, move, hops)


class Bot(pyspiel.Bot):
    """A bebete genome playing an OpenSpiel game.

    ``genome``: a ``bebete.Genome`` or a genome file; ``game``: the
    ``pyspiel`` game (or its name) it plays, one of ``GAMES``. Or the
    champion of a run over any OpenSpiel game (``bebete.ObservedGenome``,
    or its file) and that game; ``plies`` (1-6) is how deep such a genome
    searches (1: each child valued, as it learned).
    """

    def __init__(self, genome: Union[Genome, ObservedGenome, PathLike], game, plies: int = 1):
        pyspiel.Bot.__init__(self)
        self.genome = genome if isinstance(genome, (Genome, ObservedGenome)) else load(genome)
        if isinstance(game, str):
            game = pyspiel.load_game(game)
        name = game.get_type().short_name
        self.plies = plies
        if isinstance(self.genome, ObservedGenome):
            if not self.genome.game.startswith(f"openspiel:{name}"):
                raise ValueError(
                    f"{self.genome.path} is a genome of {self.genome.game}, not of OpenSpiel's {name}"
                )
            self.game = game
            return
        if plies != 1:
            raise ValueError(
                f"plies={plies}: a built-in game's genome plays at the depth it was evolved for "
                "(its lookahead); plies is for an OpenSpiel game's genome"
            )
        if name not in GAMES:
            raise ValueError(f"{name}: bebete plays {', '.join(GAMES)}")
        if GAMES[name] != self.genome.game:
            raise ValueError(
                f"{self.genome.path} is a {self.genome.game} genome; OpenSpiel's {name} needs a {GAMES[name]} genome"
            )
        self.game = game

    def step(self, state) -> int:
        """The genome's action in ``state``. In the middle of a capture of
        several jumps the genome is asked again for the whole capture from
        the turn's start (it decides alike), and its next jump is played."""
        if isinstance(self.genome, ObservedGenome):
            return self.genome.action(self.game, state, plies=self.plies)
        steps = _steps(state)  # the history replayed once a step
        return action_of(state, self.genome.move(position(state, steps)), steps)

    def provides_policy(self) -> bool:
        return True

    def step_with_policy(self, state):
        """The genome's policy in ``state`` and its action: a genome
        decides, so its action has probability 1 and every other legal
        action 0 (what OpenSpiel's tools that ask bots for policies take)."""
        action = self.step(state)
        policy = [(a, 1.0 if a == action else 0.0) for a in state.legal_actions()]
        return policy, action

    def restart_at(self, state) -> None:
        """Nothing to reset: each step reads the whole history."""

    def inform_action(self, state, player_id, action) -> None:
        """Nothing to learn: each step reads the whole history."""


def _is_factory(opponent) -> bool:
    """Whether ``opponent`` makes a bot for a seat rather than being one."""
    return callable(opponent) and not isinstance(opponent, pyspiel.Bot)


def match(player, opponent, game, games: int = 20, seed: int = 1) -> dict:
    """Plays ``games`` games of ``game`` (a ``pyspiel`` game or its name)
    between two bots, sides alternating (``player`` first in the first
    game), each game by ``pyspiel.evaluate_bots`` with seed ``seed + i``;
    ``player`` may also be a ``bebete.Genome`` or a genome file, and
    ``opponent`` a function of the seat (0 or 1) and the game's seed that
    makes a bot for that game, as OpenSpiel's random bot is made for its
    seat (``lambda seat, seed: pyspiel.make_uniform_random_bot(seat, seed)``). Returns
    ``player``'s tally as ``bebete.eval`` gives it: ``games``, ``wins``,
    ``draws``, ``losses`` and ``score`` (a win 1, a draw ½, out of 1)."""
    if isinstance(game, str):
        game = pyspiel.load_game(game)
    if not isinstance(player, pyspiel.Bot):
        player = Bot(player, game)
    if games < 1:
        raise ValueError(f"games={games}: a match is at least 1 game")
    tally = {"games": games, "wins": 0, "draws": 0, "losses": 0}
    for i in range(games):
        other = opponent(1 if i % 2 == 0 else 0, seed + i) if _is_factory(opponent) else opponent
        seats = [player, other] if i % 2 == 0 else [other, player]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), seats, seed + i)
        mine, theirs = (returns[0], returns[1]) if i % 2 == 0 else (returns[1], returns[0])
        outcome = "wins" if mine > theirs else "losses" if mine < theirs else "draws"
        tally[outcome] += 1
    tally["score"] = (tally["wins"] + tally["draws"] / 2) / games
    return tally
