#!/usr/bin/env bash
# A lone Othello learner's curve on the papers' yardstick: one value genome
# learns by self-play (no evolution: --population 1), CHUNK games a
# generation (a generation's genome is scored, then learns); after each
# generation its champion plays 1,000 games against `wpc@0.1` with 10%
# random moves of its own. Prints "games learned,score" rows, the first
# at 0 games.
# Usage: scripts/learning-curve.sh OUT_DIR SEED [POINTS] [EXTRA evolve FLAGS…]
# (needs `cargo build --release`; CHUNK=50000 by default, 8 points).
# The tables and plot of docs/experiments.md ("Why self-play plateaus")
# come from this script.
set -euo pipefail
out=$1 seed=$2 chunks=${3:-8}; shift 3 || shift $#
chunk=${CHUNK:-50000}
bin=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/target/release/bebete}
run="$out/run"
rm -rf "$run" && mkdir -p "$out"
"$bin" evolve --game othello --encoder straight --learn-against self --quiet \
  --population 1 --elite 1 --preset method --fitness vs:wpc@0.1:10 --bench-every 0 \
  --self-play "$chunk" --generations 1 --seed "$seed" --run "$run" "$@" >/dev/null
for i in $(seq 1 "$chunks"); do
  [ "$i" -gt 1 ] && "$bin" resume "$run" --generations 1 --quiet >/dev/null
  score=$("$bin" eval "$run/best.genome@0.1" --against wpc@0.1 --games 1000 --seed 1 --json |
    awk -F'[:,]' '/"wins"/ { w = $2 } /"draws"/ { d = $2 } /"losses"/ { l = $2 }
      END { printf "%.3f", (w + d / 2) / (w + d + l) }')
  echo "$(((i - 1) * chunk)),$score"
done
