"""A tour of bebete from Python: evolve a tic-tac-toe player, plot its
fitness with matplotlib, then play the champion against OpenSpiel's MCTS.

    pip install crates/bebete-py matplotlib open_spiel
    python crates/bebete-py/examples/tour.py

Writes runs/python-tour/: the run, and tour.png in it (the plot).
"""

import matplotlib

matplotlib.use("Agg")  # no window: the plot goes to a file
import matplotlib.pyplot as plt
import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import bebete
from bebete.openspiel import Bot, match

# 1. Evolve: the command line's `bebete evolve --game tictactoe --seed 1
#    --run runs/python-tour`, which stops once its champion plays every
#    position perfectly (a few hundred generations, about a second); a line
#    every 100 generations. Run again, the tour starts over.
def each(row):
    if row["generation"] % 100 == 0:
        print(f"generation {row['generation']}: best {row['best']}, mean {row['mean']:.0f}")


run = bebete.evolve("tictactoe", seed=1, run="runs/python-tour", each=each, overwrite=True)
stats = run.stats
print(f"{run.path}: {len(stats)} generations, champion in {run.path / 'best.genome'}")

# 2. Plot the champion's and the population's fitness, and the share of
#    positions where the champion plays a perfect move (measured every few
#    generations: None in the rows between).
fig, fitness = plt.subplots(figsize=(7, 4))
generations = [r["generation"] for r in stats]
fitness.plot(generations, [r["best"] for r in stats], label="best")
fitness.plot(generations, [r["mean"] for r in stats], label="mean")
fitness.set_xlabel("generation")
fitness.set_ylabel("fitness (points)")
measured = [r for r in stats if r["optimal_rate"] is not None]
optimal = fitness.twinx()
optimal.plot(
    [r["generation"] for r in measured],
    [r["optimal_rate"] for r in measured],
    "g.--",
    label="perfect moves (right)",
)
optimal.set_ylabel("share of positions played perfectly")
optimal.set_ylim(0, 1.05)
lines = fitness.get_legend_handles_labels()
more = optimal.get_legend_handles_labels()
fitness.legend(lines[0] + more[0], lines[1] + more[1], loc="lower right")
fitness.set_title("tic-tac-toe from Python, seed 1")
fig.tight_layout()
fig.savefig(run.path / "tour.png", dpi=100)
print(f"plot: {run.path / 'tour.png'}")

# 3. The champion against OpenSpiel's MCTS (100 simulations a move), sides
#    alternating.
game = pyspiel.load_game("tic_tac_toe")
champion = Bot(run.best, game)
rng = np.random.RandomState(1)
opponent = mcts.MCTSBot(game, 2, 100, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
tally = match(champion, opponent, game, games=10, seed=0)
print(f"against MCTS: {tally['wins']} wins, {tally['draws']} draws, {tally['losses']} losses")
