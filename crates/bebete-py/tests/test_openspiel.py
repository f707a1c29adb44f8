"""Genomes as OpenSpiel bots: the mapping between OpenSpiel's states and
actions and bebete's positions and moves, checked move for move against
OpenSpiel's legal actions over random games, and the bots in
`pyspiel.evaluate_bots`."""

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open_spiel)")

import bebete  # noqa: E402
from bebete import openspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402

from conftest import GENOMES  # noqa: E402

# OpenSpiel's game, random games played through it, bebete's genome.
GAMES = [
    ("tic_tac_toe", 300, "tictactoe.genome"),
    ("connect_four", 60, "connect4.genome"),
    ("othello", 20, "othello-ntuple.genome"),
    ("checkers", 20, "checkers-ntuple.genome"),
]


def action_names(state, actions):
    return [state.action_to_string(state.current_player(), a) for a in actions]


@pytest.mark.parametrize("name,games,_", GAMES)
def test_every_legal_action_is_a_bebete_move_and_back(name, games, _):
    game = pyspiel.load_game(name)
    rng = random.Random(7)
    positions = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            steps = openspiel._steps(state)
            if not openspiel._capturing(state, steps):
                text = openspiel.position(state)
                moves = bebete.legal_moves(openspiel.GAMES[name], text)
                # Each bebete move is a legal action (a capture of several
                # jumps: its first), and each legal action is a move's.
                mapped = sorted({openspiel.action_of(state, m) for m in moves})
                assert mapped == sorted(legal), (text, moves, action_names(state, legal))
                positions += 1
            state.apply_action(rng.choice(legal))
    assert positions > games * 5


def test_squares_of_checkers_map_both_ways():
    for square in range(1, 33):
        assert openspiel._checkers_square(openspiel._checkers_name(square)) == square
    # OpenSpiel's first moves are bebete's Black's.
    state = pyspiel.load_game("checkers").new_initial_state()
    shown = {openspiel._Checkers.move_of([t]) for t in action_names(state, state.legal_actions())}
    assert shown == set(bebete.legal_moves("checkers"))
    assert openspiel.position(state) == "B:W" + ",".join(map(str, range(21, 33))) + ":B" + ",".join(
        map(str, range(1, 13))
    )


def test_a_checkers_capture_of_several_jumps_is_one_move_and_one_action_a_jump():
    game = pyspiel.load_game("checkers")
    rng = random.Random(11)
    seen = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal() and seen < 5:
            steps = openspiel._steps(state)
            if openspiel._capturing(state, steps):
                # Mid-capture: the position is the turn's start, and the
                # jumps made so far begin one of bebete's moves there.
                hops = openspiel._hops(state, steps)
                start = openspiel.position(state)
                moves = bebete.legal_moves("checkers", start)
                made = openspiel._Checkers.move_of(hops)
                assert any(m.startswith(made + "x") for m in moves), (start, made, moves)
                seen += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert seen == 5


@pytest.mark.parametrize("name,_,genome", GAMES)
def test_a_bot_plays_whole_games_against_random_and_mcts(name, _, genome):
    game = pyspiel.load_game(name)
    bot = openspiel.Bot(GENOMES / genome, game)
    rng = np.random.RandomState(3)
    # A fresh opponent each game (OpenSpiel's random bot is made for the
    # seat it takes: 1 when the genome moves first, else 0).
    opponents = [
        lambda seat: pyspiel.make_uniform_random_bot(seat, 5),
        lambda seat: mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng),
    ]
    for i, make in enumerate(opponents):
        for first in (True, False):
            bots = [bot, make(1)] if first else [make(0), bot]
            returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, i)
            assert len(returns) == 2


def test_the_bot_plays_the_genomes_move():
    game = pyspiel.load_game("connect_four")
    genome = bebete.load(GENOMES / "connect4.genome")
    bot = openspiel.Bot(genome, game)
    state = game.new_initial_state()
    for column in (3, 3, 4):
        state.apply_action(column)
    assert bot.step(state) == int(genome.move("445")) - 1


def test_a_genome_of_another_game_is_refused():
    with pytest.raises(ValueError, match="connect4 genome"):
        openspiel.Bot(GENOMES / "tictactoe.genome", "connect_four")
    with pytest.raises(ValueError, match="bebete plays"):
        openspiel.Bot(GENOMES / "tictactoe.genome", "go")


class AnySeatRandom(pyspiel.Bot):
    """A random player for whichever side is to move."""

    def __init__(self, seed):
        pyspiel.Bot.__init__(self)
        self.rng = random.Random(seed)

    def step(self, state):
        return self.rng.choice(state.legal_actions())

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass


def test_the_bot_gives_its_policy_and_a_match_alternates_sides():
    game = pyspiel.load_game("tic_tac_toe")
    bot = openspiel.Bot(bebete.load(GENOMES / "tictactoe.genome"), game)
    state = game.new_initial_state()
    policy, action = bot.step_with_policy(state)
    assert action == bot.step(state)
    assert sorted(a for a, _ in policy) == state.legal_actions()
    assert dict(policy)[action] == 1.0 and sum(p for _, p in policy) == 1.0
    # The shipped champion plays perfectly: it never loses, on either side.
    opponent = AnySeatRandom(3)
    tally = openspiel.match(GENOMES / "tictactoe.genome", opponent, game, games=10)
    assert tally["games"] == 10 and tally["losses"] == 0
    assert tally["wins"] + tally["draws"] == 10
    assert tally["score"] == (tally["wins"] + tally["draws"] / 2) / 10
    with pytest.raises(ValueError, match="at least 1 game"):
        openspiel.match(bot, bot, game, games=0)
