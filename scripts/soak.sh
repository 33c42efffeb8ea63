#!/usr/bin/env bash
# The soak (issue 10): ROUTES random routes (1,000,000 by default) over the demo app, the Portus
# tree and the soak's own failing app, checking the tree's invariants after each and printing
# the Lua heaps and the RSS as it goes. A release build of Benchmarks' Soak; run it niced on a
# shared machine:
#
#     nice -n 19 bash scripts/soak.sh [ROUTES] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
routes=${1:-1000000}
seed_options=()
if [ $# -ge 2 ]; then seed_options=(--seed "$2"); fi
swift build -c release --package-path Benchmarks --product Soak
exec Benchmarks/.build/release/Soak --count "$routes" "${seed_options[@]}"
