#!/usr/bin/env bash
# The long fuzz runs (issue 10): the URL layer (MatcherFuzz), the Lua value bridge (BridgeFuzz)
# and app loading (AppSpecFuzz), COUNT inputs each (scripts: a tenth of that), seeded; the tests
# run bounded versions of each. A failure prints the input's index and the command that runs it
# alone. Run it niced on a shared machine:
#
#     nice -n 19 bash scripts/fuzz.sh [COUNT] [SEED]     # COUNT: 1,000,000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000000}
seed_options=()
if [ $# -ge 2 ]; then seed_options=(--seed "$2"); fi
swift build -c release --package-path Benchmarks --product MatcherFuzz
swift build -c release --package-path Benchmarks --product BridgeFuzz
swift build -c release --package-path Benchmarks --product AppSpecFuzz
bin=Benchmarks/.build/release
echo "== URL layer: $count inputs"
"$bin/MatcherFuzz" --count "$count" "${seed_options[@]}"
echo "== Lua value bridge: $count inputs"
"$bin/BridgeFuzz" --count "$count" "${seed_options[@]}"
echo "== app scripts: $((count / 10)) scripts"
"$bin/AppSpecFuzz" --count "$((count / 10))" "${seed_options[@]}"
