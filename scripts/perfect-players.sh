#!/usr/bin/env bash
# Reproduces the tables of docs/experiments.md ("Perfect players"):
# for seeds 1-10, generations and seconds to an unbeatable tic-tac-toe genome
# and to perfect matchsticks genomes, with the recommended settings, and how
# far the plain method gets with a comparable budget.
# Usage: scripts/perfect-players.sh [OUT_DIR]   (needs `cargo build --release`)
set -euo pipefail
out=${1:-/tmp/bebete-perfect}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/bebete
rm -rf "$out" && mkdir -p "$out" && cd "$out"

row() { # run-dir wall-seconds
  local run=$1 secs=$2 gens audit
  gens=$(($(wc -l < "$run/stats.csv") - 1))
  audit=$("$bin" audit "$run/best.genome" --json)
  printf '| %s | %s | %.2f | %.3f | %s | %s |\n' "$(basename "$run")" "$gens" "$secs" \
    "$(echo "$audit" | sed -n 's/.*"optimal_rate": \([0-9.]*\).*/\1/p')" \
    "$(echo "$audit" | sed -n 's/.*"unbeatable_first": \([a-z]*\).*/\1/p')" \
    "$(echo "$audit" | sed -n 's/.*"unbeatable_second": \([a-z]*\).*/\1/p')"
}

timed() { # run-dir args...
  local run=$1; shift
  local start end
  start=$(date +%s.%N)
  "$bin" evolve --quiet --run "$run" "$@"
  end=$(date +%s.%N)
  row "$run" "$(echo "$end - $start" | bc)"
}

echo "| run | generations | seconds | optimal_rate | unbeatable first | unbeatable second |"
echo "|---|---|---|---|---|---|"
for seed in $(seq 1 10); do timed "runs/ttt-recommended-$seed" --seed "$seed"; done
for seed in $(seq 1 10); do timed "runs/ttt-plain-$seed" --seed "$seed" --preset method --fitness round-robin --generations 1000; done
for seed in $(seq 1 10); do timed "runs/nim-subtract-$seed" --game nim --seed "$seed"; done
for seed in $(seq 1 10); do timed "runs/nim-double100-$seed" --game nim --rule double --sticks 100 --seed "$seed"; done
for seed in $(seq 1 10); do timed "runs/nim-double100-plain-$seed" --game nim --rule double --sticks 100 --seed "$seed" --preset method --fitness round-robin --generations 1000; done
"$bin" plot runs/ttt-recommended-1 runs/ttt-plain-1 --out plain-vs-recommended.png >/dev/null
