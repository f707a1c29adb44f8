#!/usr/bin/env bash
# Peg solitaire: does the method converge for a one-player game?
# For 5 and 6 rows and seeds 1-10: generations and seconds to a genome that
# leaves one peg, with the plain method (--fitness solo: one game per genome,
# elite, uniform crossover, one mutation rate) and with the recommended
# settings; then the harder goal, a genome whose move keeps the best count
# in every reachable position (--fitness vs:exhaustive), on 5 rows.
# Timing runs skip the benchmark (--bench-every 0: its table of every
# reachable position costs seconds on 6 rows). Prints tab-separated lines;
# docs/experiments.md holds a run's figures.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/bebete
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "generations 0-G in S s" and the stop line of a run's summary.
summary() {
  local out=$1
  local gens secs stop
  gens=$(grep -o 'for generations 0-[0-9]*' "$out" | grep -o '[0-9]*$')
  secs=$(grep -o 'in [0-9.]* s' "$out" | head -1 | grep -o '[0-9.]*')
  stop=$(grep -c 'target reached' "$out" || true)
  printf '%s\t%s\t%s' "$gens" "$secs" "$([ "$stop" -gt 0 ] && echo yes || echo no)"
}

printf 'rows\tsettings\tseed\tlast_generation\tseconds\treached_one_peg\n'
for rows in 5 6; do
  for seed in $(seq 1 10); do
    for settings in plain recommended; do
      flags=()
      [ "$settings" = plain ] && flags=(--preset method --fitness solo --target pegs:1)
      "$bin" evolve --game solitaire --rows "$rows" --seed "$seed" --bench-every 0 "${flags[@]}" \
        --run "$work/r" >"$work/out" 2>&1
      printf '%s\t%s\t%s\t%s\n' "$rows" "$settings" "$seed" "$(summary "$work/out")"
      rm -rf "$work/r"
    done
  done
done

printf '\nrows\tfitness\tseed\tgeneration_optimal_1\tfinal_optimal_rate\tlast_generation\tseconds\n'
for seed in $(seq 1 10); do
  "$bin" evolve --game solitaire --seed "$seed" --preset method --fitness vs:exhaustive \
    --mutation 0.0005..0.05 --generations 3000 --bench-every 10 --set patience=300 \
    --run "$work/x" >"$work/out" 2>&1
  first=$(awk -F, 'NR > 1 && $10 != "" && $10 + 0 >= 1 { print $1; exit }' "$work/x/stats.csv")
  final=$(awk -F, 'NR > 1 && $10 != "" { v = $10 } END { print v }' "$work/x/stats.csv")
  last=$(grep -o 'for generations 0-[0-9]*' "$work/out" | grep -o '[0-9]*$')
  secs=$(grep -o 'in [0-9.]* s' "$work/out" | head -1 | grep -o '[0-9.]*')
  printf '5\texhaustive\t%s\t%s\t%s\t%s\t%s\n' "$seed" "${first:-never}" "$final" "$last" "$secs"
  rm -rf "$work/x"
done
