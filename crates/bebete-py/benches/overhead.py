"""What calling bebete from Python costs: the same evolution as whole
processes, the command line against Python, runs alternating (best of
each), and a move call against the genome's own decision.

    python crates/bebete-py/benches/overhead.py [ROUNDS]

Needs the release command line (cargo build --release) and the package
installed (pip install crates/bebete-py). Prints ratios; figures go to
docs/performance.md with the machine and the date.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bebete

ROOT = Path(__file__).resolve().parents[3]
BINARY = os.environ.get("BEBETE_BIN", str(ROOT / "target" / "release" / "bebete"))
# The method's Connect-Four run: 100 genomes, a round-robin a generation.
SETTINGS = {"game": "c4", "encoder": "subgrid", "seed": "1", "generations": "60", "threads": "2"}


def cli_words(run):
    words = []
    for name, value in {**SETTINGS, "run": run}.items():
        words += ["--" + name, value]
    return [BINARY, "evolve", *words, "--quiet"]


def python_words(run):
    settings = ", ".join(f"{k}={v!r}" for k, v in SETTINGS.items() if k not in ("game", "seed"))
    script = (
        "import bebete\n"
        f"bebete.evolve({SETTINGS['game']!r}, seed={SETTINGS['seed']}, run={run!r}, {settings})\n"
    )
    return [sys.executable, "-c", script]


def timed(words, cwd):
    start = time.perf_counter()
    subprocess.run(words, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    cli, py = [], []
    with tempfile.TemporaryDirectory() as scratch:
        for r in range(rounds):
            cli.append(timed(cli_words(f"runs/cli-{r}"), scratch))
            py.append(timed(python_words(f"runs/py-{r}"), scratch))
    print(f"evolution ({SETTINGS}), whole processes, best of {rounds}:")
    print(f"  command line {min(cli):.3f} s, Python {min(py):.3f} s: Python/command line = {min(py) / min(cli):.3f}")

    genome = bebete.load(ROOT / "genomes" / "tictactoe.genome")
    calls = 200_000
    start = time.perf_counter()
    for _ in range(calls):
        genome.move("5")
    per_call = (time.perf_counter() - start) / calls
    print(f"Genome.move on tic-tac-toe (a single lookup), {calls} calls: {per_call * 1e6:.2f} µs a call")
    c4 = bebete.load(ROOT / "genomes" / "connect4-ntuple.genome")
    start = time.perf_counter()
    for _ in range(20_000):
        c4.move("4453")
    print(f"Genome.move on connect4-ntuple.genome (one ply of values): {(time.perf_counter() - start) / 20_000 * 1e6:.2f} µs a call")


if __name__ == "__main__":
    main()
