"""How strong an OpenSpiel game's champion gets: evolve GAME from Python
for MINUTES minutes with the default settings, then play the one-ply
champion RANDOM games (100 unless given) against uniform random moves and
GAMES games against
OpenSpiel's MCTS with SIMS simulations a move and random rollouts, sides
alternating; a game that reaches 1,000 moves is scored a draw.

    python crates/bebete-py/benches/strength.py GAME MINUTES [RANDOM [SIMS GAMES]] [NAME=VALUE …]

Each NAME=VALUE is a setting of `bebete.evolve` in place of its default
(`self_play=20` where a generation of 200 games outlasts the minutes,
`mirror=True`); `seed=N` runs another seed than 1.

Prints one JSON line: the game, the generations run, the self-play games
learned from, the two scores and the seconds each part took. The table
in docs/python.md is made of such lines, with the machine and the date.
With BEBETE_STRENGTH_KEEP=DIR the champion is kept as DIR/GAME.genome;
with BEBETE_STRENGTH_MCTS=cpp the MCTS bot is OpenSpiel's C++ one
(`pyspiel.MCTSBot`, the same search: UCT with c = 2, one random rollout a
leaf, solved endings backed up), where the Python one is too slow to
measure (amazons).
"""

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import bebete

MOST_MOVES = 1000


class _Enough(Exception):
    """Raised by `each` when the time is up."""


def evolve(game, minutes: float, scratch: str, settings: dict):
    """Runs the default settings until `minutes` have passed; the champion
    is the last checkpoint's (every generation's)."""
    started = time.perf_counter()
    settings = {"seed": 1, **settings}

    def each(_row):
        if time.perf_counter() - started > minutes * 60:
            raise _Enough

    try:
        bebete.evolve(game, generations=10**9, run=f"{scratch}/run", each=each, progress=False, **settings)
    except _Enough:
        pass
    return bebete.Run(f"{scratch}/run"), time.perf_counter() - started


def score(champion, game, opponent, games: int, plies: int = 1) -> float:
    """The champion's score (a win 1, a draw ½) over `games` games, sides
    alternating, searching `plies` deep; `opponent(seat, seed)` makes the
    other bot."""
    points = 0.0
    for i in range(games):
        seat = i % 2
        bots = {seat: None, 1 - seat: opponent(1 - seat, i)}
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < MOST_MOVES:
            player = state.current_player()
            bot = bots[player]
            move = champion.action(game, state, plies=plies) if bot is None else bot.step(state)
            state.apply_action(move)
            moves += 1
        if state.is_terminal():
            mine, theirs = state.returns()[seat], state.returns()[1 - seat]
            points += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
        else:
            points += 0.5
    return points / games


def main() -> None:
    words = [a for a in sys.argv[1:] if "=" not in a]
    settings = {}
    for a in sys.argv[1:]:
        if "=" in a:
            key, value = a.split("=", 1)
            words_of = {"True": True, "False": False}
            settings[key] = int(value) if value.isdigit() else words_of.get(value, value)
    name, minutes = words[0], float(words[1])
    random_games = int(words[2]) if len(words) > 2 else 100
    sims = int(words[3]) if len(words) > 3 else 0
    mcts_games = int(words[4]) if len(words) > 4 else 0
    game = pyspiel.load_game(name)
    with tempfile.TemporaryDirectory() as scratch:
        run, evolved = evolve(game, minutes, scratch, settings)
        champion = run.best
        started = time.perf_counter()
        result = {"game": name, "minutes": minutes, "generations": len(run.stats)}
        result.update(settings)
        result["learned_games"] = champion.games
        if game.num_players() == 2:
            random_bot = lambda seat, seed: pyspiel.make_uniform_random_bot(seat, seed)  # noqa: E731
            result["vs_random"] = score(champion, game, random_bot, random_games)
            result["random_games"] = random_games
        else:
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(champion.action(game, state))
            result["return"] = state.returns()[0]
        result["random_s"] = round(time.perf_counter() - started, 1)
        if sims and mcts_games and game.num_players() == 2:
            started = time.perf_counter()

            def mcts_bot(seat, seed):
                if os.environ.get("BEBETE_STRENGTH_MCTS") == "cpp":
                    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
                    return pyspiel.MCTSBot(game, evaluator, 2.0, sims, 1000, True, seed, False)
                rng = np.random.RandomState(seed)
                return mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

            result[f"vs_mcts{sims}"] = score(champion, game, mcts_bot, mcts_games)
            result["mcts_games"] = mcts_games
            result["mcts_s"] = round(time.perf_counter() - started, 1)
        result["evolve_s"] = round(evolved, 1)
        print(json.dumps(result), flush=True)
        keep = os.environ.get("BEBETE_STRENGTH_KEEP")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(champion.path, Path(keep) / f"{name}.genome")


if __name__ == "__main__":
    main()
