"""Whether a search at play time pays: an OpenSpiel game's champion (kept
by benches/strength.py with BEBETE_STRENGTH_KEEP, or a run's best.genome)
against OpenSpiel's MCTS with SIMS simulations a move and random rollouts,
GAMES games with sides alternating, at each depth of PLIES (a comma list).

    python crates/bebete-py/benches/plies.py GAME CHAMPION PLIES [SIMS GAMES]

Prints one JSON line a depth: the score and the seconds the games took.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import bebete

sys.path.insert(0, str(Path(__file__).parent))
from strength import score  # noqa: E402


def main() -> None:
    name, champion = sys.argv[1], bebete.load(sys.argv[2])
    depths = [int(p) for p in sys.argv[3].split(",")]
    sims = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    games = int(sys.argv[5]) if len(sys.argv) > 5 else 20
    game = pyspiel.load_game(name)

    def mcts_bot(seat, seed):
        rng = np.random.RandomState(seed)
        return mcts.MCTSBot(game, 2, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)

    for plies in depths:
        started = time.perf_counter()
        result = score(champion, game, mcts_bot, games, plies)
        print(json.dumps({
            "game": name, "plies": plies, f"vs_mcts{sims}": result, "games": games,
            "seconds": round(time.perf_counter() - started, 1),
        }), flush=True)


if __name__ == "__main__":
    main()
