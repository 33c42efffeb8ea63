#!/usr/bin/env bash
# What one trivial scenario costs under `portolan test --app` the demo app: 1,000 scenarios in 10
# files of 100, timed with hyperfine, for each binary given (say, a release build of the commit
# before a change and one of the change), side by side in one run: wall time, and user CPU time
# (steadier on a loaded machine).
#
#   Benchmarks/scripts/scenario-cost.sh OLD_PORTOLAN NEW_PORTOLAN
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { echo "usage: scenario-cost.sh PORTOLAN..." >&2; exit 2; }
command -v hyperfine >/dev/null || { echo "scenario-cost.sh needs hyperfine (apt-get install hyperfine)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for ((f = 1; f <= 10; f++)); do
  for ((s = 1; s <= 100; s++)); do
    echo "scenario(\"trivial $f.$s\", function() expect(1, 1) end)"
  done > "$work/trivial_$f.lua"
done
commands=()
for portolan in "$@"; do
  commands+=("$portolan test --app Examples/movies/app.lua $work/trivial_*.lua")
done
hyperfine --warmup 1 --runs "${RUNS:-5}" --export-json "$work/t.json" "${commands[@]}" >&2
python3 - "$work/t.json" "$@" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
user = results[0]["user"]
print("| binary | ms per scenario | × the first | user CPU ms per scenario | × the first (user) |")
print("|---|---|---|---|---|")
for path, result in zip(sys.argv[2:], results):
    print(f"| {path} | {result['median'] / 1000 * 1000:.3f} | {result['median'] / base:.2f} "
          f"| {result['user']:.3f} | {result['user'] / user:.2f} |")
PY
