"""Where a learning game's time goes on an OpenSpiel game: bebete's
self-play learning games against a bare Python loop that makes the same
OpenSpiel calls (every legal child of every position played, who moves
there, and its observation tensor through the game's observer; moves at
random), and against the same loop reading each tensor as
`state.observation_tensor(0)`, the list of floats most Python code asks
for; games alternating, best of ROUNDS.

    python crates/bebete-py/benches/observed_speed.py [ROUNDS] [GAMES]

Needs the package installed (pip install crates/bebete-py) and OpenSpiel.
Prints, for connect_four, othello and breakthrough, the microseconds per
move of each (a learner's greedy games and random games differ in
length) and bebete's against the loop of the same calls; then, for
boards of a thousand values and more, what one tensor costs each way; figures go to docs/performance.md with the
machine and the date.
"""

import random
import sys
import tempfile
import time

import pyspiel
from open_spiel.python.observation import make_observation

import bebete


def bare(game, games: int, seed: int, observer: bool) -> int:
    """The calls bebete makes, from Python: every child of every position
    played, who moves there (its returns if it is over), its tensor (the
    observer's bytes, or the list `observation_tensor` builds)."""
    rng = random.Random(seed)
    seen = make_observation(game)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            children = []
            for action in state.legal_actions():
                child = state.child(action)
                if child.current_player() < 0:
                    child.returns()
                elif observer:
                    seen.set_from(child, 0)
                    seen.tensor.tobytes()
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


def tensor_costs(name: str, rounds: int) -> tuple:
    """Microseconds to read one child's tensor, best of ROUNDS over the
    children of a position 6 random moves in: as `observation_tensor(0)`'s
    list made numbers, and as the observer's bytes."""
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(1)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    children = [state.child(a) for a in state.legal_actions()]
    seen = make_observation(game)
    lists = bytes_ = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for child in children:
            [float(v) for v in child.observation_tensor(0)]
        lists = min(lists, (time.perf_counter() - started) / len(children) * 1e6)
        started = time.perf_counter()
        for child in children:
            seen.set_from(child, 0)
            seen.tensor.tobytes()
        bytes_ = min(bytes_, (time.perf_counter() - started) / len(children) * 1e6)
    return len(children[0].observation_tensor(0)), lists, bytes_


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(
        f"{'game':<14} {'lists µs/move':>14} {'bare µs/move':>13} "
        f"{'bebete µs/move':>15} {'bebete/bare':>12}"
    )
    for name in ("connect_four", "othello", "breakthrough"):
        game = pyspiel.load_game(name)
        best_lists = best_bare = best_bebete = float("inf")
        for r in range(rounds):
            started = time.perf_counter()
            plies = bare(game, games, r, observer=False)
            best_lists = min(best_lists, (time.perf_counter() - started) / plies * 1e6)
            started = time.perf_counter()
            plies = bare(game, games, r, observer=True)
            best_bare = min(best_bare, (time.perf_counter() - started) / plies * 1e6)
            seconds, moves = learning(game, games, r)
            best_bebete = min(best_bebete, seconds / moves * 1e6)
        print(
            f"{name:<14} {best_lists:>14.1f} {best_bare:>13.1f} "
            f"{best_bebete:>15.1f} {best_bebete / best_bare:>12.2f}"
        )
    print(f"\n{'game':<14} {'values':>7} {'list µs':>8} {'observer µs':>12}")
    for name in ("chess", "go", "shogi"):
        values, lists, bytes_ = tensor_costs(name, rounds)
        print(f"{name:<14} {values:>7} {lists:>8.1f} {bytes_:>12.1f}")


if __name__ == "__main__":
    main()
