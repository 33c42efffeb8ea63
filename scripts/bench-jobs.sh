#!/usr/bin/env bash
# Benchmarks `portolan test --jobs`: a generated suite of 200 scenarios (20 files × 10, on
# Examples/portus/app.lua) run with --jobs 1 and --jobs 2 (or JOBS), RUNS times each, in a
# release build; prints the median wall-clock times and the speedup.
#
#   scripts/bench-jobs.sh              # RUNS=7 FILES=20 SCENARIOS=10 WORK=40 JOBS=2
#   RUNS=9 WORK=80 scripts/bench-jobs.sh
#   PORTOLAN=path/to/portolan scripts/bench-jobs.sh   # skip the build
#
# Uses hyperfine when installed, else an interleaved loop timed with date +%s.%N (which also
# shows how many cores each run kept busy). The target of issue 5 is a speedup of at least 1.6
# on a 2-core machine; on a machine shared with other work the medians are noisy, so the best
# time of each is printed too.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-7}
FILES=${FILES:-20}
SCENARIOS=${SCENARIOS:-10}
WORK=${WORK:-40}
JOBS=${JOBS:-2}
SCRATCH=${SCRATCH:-.build-bench}

if [ -n "${PORTOLAN:-}" ]; then   # a release binary built already
  portolan=$PORTOLAN
else
  echo "building release (scratch path $SCRATCH)…" >&2
  swift build -c release --product portolan --scratch-path "$SCRATCH" >&2
  portolan="$(swift build -c release --product portolan --scratch-path "$SCRATCH" --show-bin-path)/portolan"
fi

suite=$(mktemp -d "${TMPDIR:-/tmp}/portolan-bench-jobs.XXXXXX")
trap 'rm -rf "$suite"' EXIT
Benchmarks/scenarios/generate.sh "$suite" "$FILES" "$SCENARIOS" "$WORK"
scenario_files=("$suite"/*.lua)
count=$((FILES * SCENARIOS))
echo "suite: $count scenarios in ${#scenario_files[@]} files; $(nproc) cores; $RUNS runs each" >&2

run() {   # run JOBS: one full suite run; fails if any scenario fails
  "$portolan" test --jobs "$1" --app Examples/portus/app.lua "${scenario_files[@]}" >"$suite/out.$1"
}

# A check first: both runs pass every scenario and report identically.
run 1 && run "$JOBS"
tail -n 1 "$suite/out.1" >&2
if ! cmp -s "$suite/out.1" "$suite/out.$JOBS"; then
  echo "the report of --jobs $JOBS differs from --jobs 1" >&2
  diff "$suite/out.1" "$suite/out.$JOBS" >&2 || true
  exit 1
fi
grep -q "^$count passed, 0 failed$" "$suite/out.1" || { echo "expected $count passing scenarios" >&2; exit 1; }

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

if command -v hyperfine >/dev/null; then
  hyperfine --warmup 1 --runs "$RUNS" --export-json "$suite/times.json" \
    "$portolan test --jobs 1 --app Examples/portus/app.lua ${scenario_files[*]}" \
    "$portolan test --jobs $JOBS --app Examples/portus/app.lua ${scenario_files[*]}" >&2
  one=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$suite/times.json")
  many=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][1]["median"])' "$suite/times.json")
  best1=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["min"])' "$suite/times.json")
  bestN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][1]["min"])' "$suite/times.json")
else
  # Wall-clock time from date +%s.%N; CPU time (user + system) from bash's `time`, to show how
  # many cores a run kept busy.
  TIMEFORMAT='%U %S'
  times1=() timesN=() cpu1=() cpuN=()
  for ((i = 0; i < RUNS; i++)); do   # interleaved, so that drift in the machine's load hits both
    for jobs in 1 "$JOBS"; do
      start=$(date +%s.%N)
      { time run "$jobs" 2>/dev/null; } 2>"$suite/cpu"
      end=$(date +%s.%N)
      elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
      usage=$(awk -v wall="$elapsed" '{ printf "%.2f", ($1 + $2) / wall }' "$suite/cpu")
      if [ "$jobs" = 1 ]; then times1+=("$elapsed") cpu1+=("$usage"); else timesN+=("$elapsed") cpuN+=("$usage"); fi
    done
  done
  echo "--jobs 1 wall (s):       ${times1[*]}" >&2
  echo "--jobs 1 cores busy:     ${cpu1[*]}" >&2
  echo "--jobs $JOBS wall (s):       ${timesN[*]}" >&2
  echo "--jobs $JOBS cores busy:     ${cpuN[*]}" >&2
  one=$(printf '%s\n' "${times1[@]}" | median)
  many=$(printf '%s\n' "${timesN[@]}" | median)
  best1=$(printf '%s\n' "${times1[@]}" | sort -g | head -n 1)
  bestN=$(printf '%s\n' "${timesN[@]}" | sort -g | head -n 1)
fi

awk -v one="$one" -v many="$many" -v best1="$best1" -v bestN="$bestN" -v jobs="$JOBS" -v count="$count" 'BEGIN {
  printf "scenarios: %d\n", count
  printf "median --jobs 1: %.3f s\n", one
  printf "median --jobs %d: %.3f s\n", jobs, many
  printf "speedup (medians): %.2fx\n", one / many
  printf "speedup (best of each): %.2fx (%.3f s / %.3f s)\n", best1 / bestN, best1, bestN
}'
