#!/usr/bin/env bash
# Reproduces the Connect-Four tables of docs/experiments.md: each setting,
# seeds 1-3, the same generation budget (a setting may name its own
# --generations to match the others' time), champions measured with `eval`
# (400 games per opponent, sides alternating, 2 random opening plies).
# Usage: scripts/connect4-experiments.sh [GENERATIONS] [OUT_DIR]
#        ONLY="name|name" runs a subset of the settings.
set -euo pipefail
gens=${1:-1000}
out=${2:-/tmp/bebete-c4}
bin=$(cd "$(dirname "$0")/.." && pwd)/target/release/bebete
rm -rf "$out" && mkdir -p "$out" && cd "$out"

settings=(
  "method|--fitness round-robin"
  "fixed opponents|--fitness vs:random:10+rules:10"
  "fixed + playable|--fitness vs:random:10+rules:10 --encoder playable"
  "fixed + mirror|--fitness vs:random:10+rules:10 --encoder mirror"
  "fixed + playable-mirror|--fitness vs:random:10+rules:10 --encoder playable-mirror"
  "mirror + alphabeta:1|--fitness vs:random:10+rules:10+alphabeta:1:10 --encoder mirror"
  "mirror + alphabeta:2|--fitness vs:rules:20+alphabeta:2:6 --encoder mirror"
  # Operators and populations, about 30 s each (base = the shipped champion's
  # settings at 1,000 generations).
  "base|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6"
  "base + zero init|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6 --init zero"
  "base + block:31|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6 --crossover block:31"
  "base + block:961|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6 --crossover block:961"
  "base + zero init + mutate used|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6 --init zero --mutate used"
  "base + mutate used|--encoder mirror --fitness vs:random:10+rules:20+alphabeta:2:6 --mutate used"
  "population 500, sampled|--encoder mirror --population 500 --elite 50 --fitness vs:sample:4+random:2+rules:4+alphabeta:2:2 --generations 280 --checkpoint-every 1000 --keep 1"
  "base, random:20|--encoder mirror --fitness vs:random:20+rules:20+alphabeta:2:6"
  "base + hall of fame|--encoder mirror --fitness vs:hof:10+random:10+rules:20+alphabeta:2:6"
  "hall of fame for alphabeta:2|--encoder mirror --fitness vs:hof:20+random:10+rules:20"
  "population 2000, sampled|--encoder mirror --population 2000 --elite 200 --fitness vs:sample:4+random:2+rules:4+alphabeta:2:2 --generations 25 --checkpoint-every 1000 --keep 1"
)
if [ -n "${ONLY:-}" ]; then
  kept=()
  for entry in "${settings[@]}"; do [[ "|$ONLY|" == *"|${entry%%|*}|"* ]] && kept+=("$entry"); done
  settings=("${kept[@]}")
fi
score() { # eval JSON, opponent -> percent
  python3 -c "import json,sys; d={r['against']: r for r in json.load(sys.stdin)}; r=d['$2']; print('%.1f' % (100*(r['wins']+r['draws']/2)/r['games']))" <<<"$1"
}
echo "| setting | seed | seconds | vs random | vs rules | vs mc:200 | vs alphabeta:4 |"
echo "|---|---|---|---|---|---|---|"
for entry in "${settings[@]}"; do
  name=${entry%%|*}; flags=${entry#*|}
  for seed in 1 2 3; do
    run="runs/$(echo "$name" | tr ' +' '__')-$seed"
    start=$(date +%s.%N)
    budget=(--generations "$gens")
    [[ "$flags" == *--generations* ]] && budget=()
    # shellcheck disable=SC2086
    "$bin" evolve --quiet --game c4 --seed "$seed" "${budget[@]}" --bench-every 0 --run "$run" $flags
    secs=$(echo "$(date +%s.%N) - $start" | bc)
    json=$("$bin" eval "$run/best.genome" --against random,rules,mc:200,alphabeta:4 --games 400 --json)
    printf '| %s | %s | %.0f | %s%% | %s%% | %s%% | %s%% |\n' "$name" "$seed" "$secs" \
      "$(score "$json" random)" "$(score "$json" rules)" "$(score "$json" mc:200)" \
      "$(score "$json" alphabeta:4)"
  done
done
