#!/usr/bin/env bash
# The long fuzz runs (issue 10), seeded, each a release build of Benchmarks: the URL layer
# (MatcherFuzz) and Lua value conversion (ConversionFuzz) with COUNT inputs each, app loading
# (AppSpecFuzz) with a tenth as many scripts, restore (RestoreFuzz, mutated snapshots) and the bundle reader (BundleFuzz, mutated bundles) with COUNT. The tests run bounded versions of each. A failure
# prints the input's index and the command that runs it alone. On a shared machine:
#
#     nice -n 19 bash scripts/fuzz.sh [COUNT] [SEED]     # COUNT: 1,000,000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
seeded=()
if [ $# -ge 2 ]; then seeded=(--seed "$2"); fi
swift build -c release --package-path Benchmarks
for run in "MatcherFuzz $count" "ConversionFuzz $count" "AppSpecFuzz $((count / 10))" "RestoreFuzz $count" "BundleFuzz $count"; do
    set -- $run
    echo "== $1, $2 inputs"
    "Benchmarks/.build/release/$1" --count "$2" "${seeded[@]}"
done
