"""The method's tic-tac-toe GA written with DEAP, to compare bebete's
generation time with a Python GA's (docs/performance.md).

The same GA as `bebete evolve --game ttt --fitness round-robin
--bench-every 0`: 100 genomes of 19,683 genes (one cell 0-8 per base-3
board), a round-robin of every ordered pair (2 points a win, 1 a draw), the
10 best kept, 90 children by uniform crossover of the 2 best and uniform
mutation at 0.001 a gene; an illegal gene is repaired by the next empty
cell upward. DEAP gives the individuals, the selection and the operators;
the games are plain Python, as a DEAP user would write them.

    pip install deap
    python scripts/deap-tictactoe.py GENERATIONS [SEED]

Prints the seconds of the run and a line per generation (best points).
"""

import random
import sys
import time

from deap import base, creator, tools

GENES = 3**9
POWERS = [3**k for k in range(9)]
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
# The lines through each cell, as bit masks: a win is looked for there only.
THROUGH = [[sum(1 << c for c in line) for line in LINES if cell in line] for cell in range(9)]


def game(first, second):
    """1 if `first` wins, -1 if `second` does, 0 for a draw."""
    stones = [0, 0]
    index = 0
    for ply in range(9):
        me = ply % 2
        genes = second if me else first
        taken = stones[0] | stones[1]
        cell = genes[index] % 9
        while taken >> cell & 1:
            cell = (cell + 1) % 9
        mine = stones[me] = stones[me] | 1 << cell
        index += POWERS[cell] * (me + 1)
        for line in THROUGH[cell]:
            if mine & line == line:
                return -1 if me else 1
    return 0


def round_robin(population):
    points = [0] * len(population)
    for a, first in enumerate(population):
        for b, second in enumerate(population):
            if a == b:
                continue
            result = game(first, second)
            points[a] += 1 + result
            points[b] += 1 - result
    for individual, p in zip(population, points):
        individual.fitness.values = (p,)


def main():
    generations = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    random.seed(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    creator.create("Points", base.Fitness, weights=(1.0,))
    creator.create("Genome", list, fitness=creator.Points)
    toolbox = base.Toolbox()
    toolbox.register("gene", random.randint, 0, 8)
    toolbox.register("genome", tools.initRepeat, creator.Genome, toolbox.gene, GENES)
    toolbox.register("population", tools.initRepeat, list, toolbox.genome)
    toolbox.register("mate", tools.cxUniform, indpb=0.5)
    toolbox.register("mutate", tools.mutUniformInt, low=0, up=8, indpb=0.001)
    population = toolbox.population(n=100)
    start = time.perf_counter()
    for generation in range(generations):
        round_robin(population)
        elite = tools.selBest(population, 10)
        # DEAP's way (as in varAnd): clone the parents, mate them in pairs
        # (two children a crossover), mutate each child.
        children = []
        while len(children) < 90:
            a, b = (toolbox.clone(p) for p in elite[:2])
            toolbox.mate(a, b)
            for child in (a, b):
                toolbox.mutate(child)
                del child.fitness.values
            children += [a, b]
        print(generation, elite[0].fitness.values[0], flush=True)
        population = elite + children
    print(f"{generations} generations in {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
