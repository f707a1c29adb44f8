#!/usr/bin/env bash
# The fourth reliability campaign again (issue 72), black box with the
# release binary: hard kills during a run, resumed each time and compared
# with an uninterrupted run; a stray and a foreign checkpoint; a FIFO and
# /dev/zero for every file a command reads; every command piped into
# `head -1`. Prints one line a check and the totals; exits 1 on any
# failure. Usage: cargo build --release && scripts/campaign.sh [KILLS]
set -uo pipefail
bin="$(cd "$(dirname "$0")/.." && pwd)/target/release/bebete"
genomes="$(cd "$(dirname "$0")/.." && pwd)/genomes"
kills="${1:-30}"
work="$(mktemp -d)"
cd "$work" || exit 1
pass=0 fail=0
check() { # check NAME CONDITION-RESULT(0 ok)
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "ok   $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi
}
strip_times() { cut -d, -f1-5,9- "$1"; }

# 1. Kills: a tic-tac-toe run checkpointing every generation, killed at
#    random moments and resumed until done, against one never killed.
#    (Both folders are named `run`: a genome file names its run's folder.)
run=(evolve --game ttt --seed 11 --generations 400 --checkpoint-every 1 -q)
mkdir -p a b
"$bin" "${run[@]}" --run a/run >/dev/null 2>&1
ln -s a/run whole
ln -s b/run killed
"$bin" "${run[@]}" --run b/run >/dev/null 2>&1 &
pid=$!
for i in $(seq 1 "$kills"); do
  sleep "0.0$((RANDOM % 9 + 1))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ -f killed/ended.toml ] && break
  "$bin" resume b/run -q >/dev/null 2>&1 &
  pid=$!
done
wait "$pid" 2>/dev/null
while [ ! -f killed/ended.toml ]; do "$bin" resume b/run -q >/dev/null 2>&1; done
cmp -s whole/best.genome killed/best.genome
check "killed $i times: best.genome as the whole run's" $?
diff <(strip_times whole/stats.csv) <(strip_times killed/stats.csv) >/dev/null
check "killed $i times: stats.csv as the whole run's" $?
leftovers=$(find b/run -name '.*.tmp-*' | wc -l)
[ "$leftovers" -eq 0 ]
check "no temporary files left after the kills ($leftovers)" $?

# 2. A stray checkpoint numbered past the end, and a foreign one.
cp whole/best.genome before.genome
head -c 1000 /dev/urandom > whole/checkpoints/gen-000900.ckpt
"$bin" resume a/run >out 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q "gen-000900.ckpt" out && cmp -s before.genome whole/best.genome \
  && grep -q "generations = 400" whole/run.toml
check "a stray checkpoint is set aside, nothing replayed (rc $rc)" $?
"$bin" evolve --game ttt --seed 99 --generations 3 --checkpoint-every 1 --run other -q >/dev/null 2>&1
cp other/checkpoints/gen-000003.ckpt whole/checkpoints/gen-000950.ckpt
"$bin" resume a/run >out 2>&1
grep -qE "another run|not the 950" out && cmp -s before.genome whole/best.genome
check "another run's checkpoint is set aside" $?
rm -f whole/run.toml
"$bin" evolve --game ttt --seed 5 --generations 3 --run a/run -q >out 2>&1
[ $? -ne 0 ] && grep -q "no run.toml" out
check "evolve into checkpoints without run.toml is refused" $?

# 3. A FIFO and /dev/zero for every file a command reads: never a hang,
#    never a panic.
mkfifo fifo.genome
mkdir -p fiforun/checkpoints && cp -r killed/run.toml killed/stats.csv fiforun/
mkfifo fiforun/checkpoints/gen-000999.ckpt
for bad in fifo.genome /dev/zero; do
  for cmd in "genome info $bad" "move $bad" "explain $bad" "eval $bad" \
    "play $bad" "eval $genomes/tictactoe.genome --against $bad" "plot $bad"; do
    # shellcheck disable=SC2086
    timeout 10 "$bin" $cmd </dev/null >/dev/null 2>&1
    rc=$?
    [ "$rc" -ne 124 ] && [ "$rc" -ne 101 ] && [ "$rc" -ne 137 ]
    check "bebete $cmd: rc $rc" $?
  done
done
timeout 20 "$bin" resume fiforun -q >/dev/null 2>&1
rc=$?
[ "$rc" -ne 124 ] && [ "$rc" -ne 101 ]
check "resume with a FIFO checkpoint: rc $rc" $?

# 4. Every command into a closed pipe, with and without 2>&1.
cmds=("evolve --dry-run" "evolve --game ttt --generations 2 --run piped -q"
  "genome info $genomes/tictactoe.genome" "eval $genomes/tictactoe.genome --games 10"
  "move $genomes/tictactoe.genome --position 5" "explain $genomes/tictactoe.genome --position 5"
  "audit $genomes/tictactoe.genome" "solve --game ttt" "plot whole" "--help" "evolve --help"
  "eval $genomes/tictactoe.genome perfect random --game ttt --league --games 10")
for cmd in "${cmds[@]}"; do
  for both in no yes; do
    rm -rf piped
    if [ "$both" = yes ]; then
      # shellcheck disable=SC2086
      timeout 60 "$bin" $cmd 2>&1 </dev/null | head -1 >/dev/null
    else
      # shellcheck disable=SC2086
      timeout 60 "$bin" $cmd </dev/null 2>/dev/null | head -1 >/dev/null
    fi
    rc=${PIPESTATUS[0]}
    [ "$rc" -ne 101 ] && [ "$rc" -ne 124 ]
    check "bebete $cmd | head -1 (2>&1: $both): rc $rc" $?
  done
done

echo "campaign: $pass passed, $fail failed ($work)"
[ "$fail" -eq 0 ]
