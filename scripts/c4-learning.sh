#!/usr/bin/env bash
# Reproduces the "Learning from the bank" tables of docs/experiments.md:
# each mechanism runs for the same wall time (SECONDS_EACH, default 150),
# stopped by SIGINT (the run finishes its generation and checkpoints), then
# its champion is measured: held-out optimal-move rate (the last benchmark)
# and games against fixed opponents.
# Usage: scripts/c4-learning.sh [OUT_DIR] [NAME…]   (needs `cargo build --release`)
set -uo pipefail
out=${1:-/tmp/bebete-c4-learning}; shift || true
secs=${SECONDS_EACH:-150}
games=${GAMES:-400}
bin=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/target/release/bebete}
mkdir -p "$out" && cd "$out"

declare -A setting=(
  [method]="--fitness round-robin"
  [ga-bank]="--fitness vs:bank --init zero"
  [ga-bank-score]="--fitness vs:bank-score --init zero"
  [guided]="--fitness vs:bank --init zero --guided 20"
  [local]="--fitness vs:bank --init zero --local-search 2"
  [guided-local]="--fitness vs:bank --init zero --guided 20 --local-search 2"
  [mirror]="--fitness vs:bank --init zero --guided 20 --local-search 2 --encoder mirror"
  [playable-mirror]="--fitness vs:bank --init zero --guided 20 --local-search 2 --encoder playable-mirror"
  [games]="--fitness vs:random:10+rules:20+alphabeta:2:6 --init zero --encoder mirror"
  [games-local]="--fitness vs:random:10+rules:20+alphabeta:2:6 --init zero --guided 20 --local-search 2 --encoder mirror"
)
names=("$@")
[ ${#names[@]} -eq 0 ] && names=(method ga-bank ga-bank-score guided local guided-local mirror playable-mirror games games-local)

for name in "${names[@]}"; do
  rm -rf "runs/$name"
  # shellcheck disable=SC2086
  timeout -s INT "$secs" "$bin" evolve --game c4 --seed 1 --quiet --run "runs/$name" \
    --generations 1000000 --bench-every 10 --bench-games 50 ${setting[$name]}
  gens=$(($(wc -l < "runs/$name/stats.csv") - 1))
  rate=$(awk -F, 'NR > 1 && $NF != "" { r = $NF } END { print r }' "runs/$name/stats.csv")
  "$bin" eval "runs/$name/best.genome" --against random,rules,mc:200,alphabeta:4 \
    --games "$games" --json > "runs/$name/eval.json"
  scores=$(awk '/"games"/ { g = $2 } /"wins"/ { w = $2 } /"draws"/ { d = $2 }
    /"losses"/ { printf " %.1f |", 100 * (w + d / 2) / g }' "runs/$name/eval.json")
  printf '| %s | %s | %s | %s |%s\n' "$name" "$secs" "$gens" "$rate" "$scores"
done
