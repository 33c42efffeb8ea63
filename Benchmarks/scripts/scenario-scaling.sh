#!/usr/bin/env bash
# What grows with a scenario file's size, and what `--jobs 2` gains: issue 24's two scenario ratios,
# for each `portolan` binary given, side by side in one hyperfine run.
#
#   Benchmarks/scripts/scenario-scaling.sh PORTOLAN...          (APP=path/app.lua RUNS=5 to change)
#
# 1,000 trivial scenarios (`scenario("sN", function() expect(N + 1, N + 1) end)`), as one file of
# 1,000 and as ten files of 100, run with `--jobs 1`: the ratio of their user CPU time is the cost
# of a scenario in a big file against a small one (target <= 1.1). The ten files again with
# `--jobs 2`: the ratio of the wall times, jobs 1 over jobs 2, is the speed-up (target >= 1.9; it
# needs both cores free, so read it with the load average the script prints).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: scenario-scaling.sh PORTOLAN..." >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "scenario-scaling.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/ten" "$work/one"
for ((f = 1; f <= 10; f++)); do
  for ((s = 1; s <= 100; s++)); do
    echo "scenario(\"s$f.$s\", function() expect($s + 1, $s + 1) end)"
  done > "$work/ten/t$(printf %02d "$f").lua"
done
for ((s = 1; s <= 1000; s++)); do
  echo "scenario(\"s$s\", function() expect($s + 1, $s + 1) end)"
done > "$work/one/one.lua"
app=()
[ -n "${APP:-}" ] && app=(--app "$APP")
commands=()
for portolan in "$@"; do
  commands+=("$portolan test ${app[*]} --jobs 1 $work/ten" "$portolan test ${app[*]} --jobs 1 $work/one"
             "$portolan test ${app[*]} --jobs 2 $work/ten")
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$work/t.json" "${commands[@]}" >&2
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$work/t.json" "$@" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
print("| binary | ten of 100, user ms/scenario | one of 1,000, user ms/scenario | one ÷ ten (user) | one ÷ ten (wall) | jobs 1 ÷ jobs 2 (wall) |")
print("|---|---|---|---|---|---|")
for index, path in enumerate(sys.argv[2:]):
    ten, one, two = results[3 * index:3 * index + 3]
    print(f"| {path} | {ten['user']:.3f} | {one['user']:.3f} | {one['user'] / ten['user']:.2f} "
          f"| {one['median'] / ten['median']:.2f} | {ten['median'] / two['median']:.2f} |")
PY
