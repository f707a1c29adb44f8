#!/usr/bin/env python3
"""Draws lone learners' curves on the papers' yardstick, one colour per
candidate, one line per seed: the figure of docs/experiments.md ("Why
self-play plateaus"). Reads CSV files NAME-SEED.csv ("games,score" rows, as
scripts/learning-curve.sh prints them) from a folder.

Usage: scripts/plot-learning-curves.py DIR OUT.png [--title TEXT] [NAME=LABEL ...]
(needs matplotlib: pip install matplotlib)."""
import csv
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

folder, out = Path(sys.argv[1]), sys.argv[2]
rest = sys.argv[3:]
title = "Othello, one learner of straight pairs by self-play: three seeds per candidate"
if rest[:1] == ["--title"]:
    title, rest = rest[1], rest[2:]
labels = dict(arg.split("=", 1) for arg in rest)
curves = {}
for path in sorted(folder.glob("*-*.csv")):
    name, seed = path.stem.rsplit("-", 1)
    if labels and name not in labels:
        continue
    rows = [(int(g), float(s)) for g, s in csv.reader(path.open()) if s]
    curves.setdefault(name, []).append((seed, rows))
# The labels' order when given, else the files'.
if labels:
    curves = {name: curves[name] for name in labels if name in curves}

fig, ax = plt.subplots(figsize=(9, 5.5), dpi=110)
colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
for colour, (name, seeds) in zip(colours, curves.items()):
    for i, (seed, rows) in enumerate(seeds):
        games = [g / 1000 for g, _ in rows]
        scores = [s for _, s in rows]
        ax.plot(games, scores, marker="o", color=colour, alpha=0.85,
                label=labels.get(name, name) if i == 0 else None)
ax.axhline(0.90, color="grey", linestyle="--", linewidth=1)
ax.text(0.01, 0.905, "goal: 90%", color="grey", transform=ax.get_yaxis_transform())
ax.set_xlabel("self-play games learned from (thousands)")
ax.set_ylabel("score against wpc@0.1 (1,000 games, both sides ε = 0.1)")
ax.set_ylim(0.1, 1.0)
ax.grid(alpha=0.3)
ax.set_title(title)
ax.legend(loc="lower right")
fig.tight_layout()
fig.savefig(out)
