"""Where a learning game's time goes on an OpenSpiel game: bebete's
self-play learning games against a bare Python loop that makes the same
OpenSpiel calls (every legal child of every position played, whether it
is over, and its observation tensor; moves at random), games alternating,
best of ROUNDS.

    python crates/bebete-py/benches/observed_speed.py [ROUNDS] [GAMES]

Needs the package installed (pip install crates/bebete-py) and OpenSpiel.
Prints, for connect_four, othello and breakthrough, the microseconds per
move of each (a learner's greedy games and random games differ in
length) and their ratio; figures go to docs/performance.md with the
machine and the date.
"""

import random
import sys
import tempfile
import time

import pyspiel

import bebete


def bare(game, games: int, seed: int) -> int:
    """The calls bebete makes, from Python: every child of every position
    played, whether it is over (its returns if so), its tensor."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            children = []
            for action in state.legal_actions():
                child = state.child(action)
                if child.is_terminal():
                    child.returns()
                else:
                    child.observation_tensor(0)
                children.append(child)
            state = rng.choice(children)
            plies += 1
    return plies


def learning(game, games: int, seed: int) -> tuple:
    """bebete's learning games alone: one learner, one generation of
    `games` self-play games (the layout's probe of 8 random games and one
    game, timed apart and taken off). Seconds and moves."""
    moves = []
    with tempfile.TemporaryDirectory() as scratch:
        settings = dict(population=1, elite=1, bench_every=0, progress=False, max_moves=1000)
        started = time.perf_counter()
        bebete.evolve(game, seed=seed, generations=1, self_play=1, run=f"{scratch}/p", **settings)
        probe = time.perf_counter() - started
        started = time.perf_counter()
        bebete.evolve(
            game, seed=seed, generations=1, self_play=games + 1, run=f"{scratch}/r",
            each=lambda row: moves.append(row["learned"]), **settings,
        )
        return time.perf_counter() - started - probe, moves[0]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"{'game':<14} {'bare µs/move':>13} {'bebete µs/move':>15} {'bebete/bare':>12}")
    for name in ("connect_four", "othello", "breakthrough"):
        game = pyspiel.load_game(name)
        best_bare = best_bebete = float("inf")
        for r in range(rounds):
            started = time.perf_counter()
            plies = bare(game, games, r)
            best_bare = min(best_bare, (time.perf_counter() - started) / plies * 1e6)
            seconds, moves = learning(game, games, r)
            best_bebete = min(best_bebete, seconds / moves * 1e6)
        print(f"{name:<14} {best_bare:>13.1f} {best_bebete:>15.1f} {best_bebete / best_bare:>12.2f}")


if __name__ == "__main__":
    main()
