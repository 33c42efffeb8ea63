#!/usr/bin/env bash
# The second attack's table (issue 18): runs every attempt, those that get through today included, and
# prints one row per class — attempts, blocked, escaped, crash, hang — then the attempts not blocked.
# Needs a build with tests (swift build --build-tests). Takes a few minutes: hanging attempts run to a watchdog.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT
PORTOLAN_ATTACK_TABLE=1 swift test --skip-build --filter 'SecondAttack(CLI)?Tests/printTheTable' >"$log" 2>&1 || true
echo "| class | attempts | blocked | escaped | crash | hang |"
echo "|---|---|---|---|---|---|"
grep -o 'attack-row: .*' "$log" | sed 's/^attack-row: //'
grep -o 'attack-row: .*' "$log" | awk -F'|' '{a+=$3; b+=$4; e+=$5; c+=$6; h+=$7} END {printf "| total | %d | %d | %d | %d | %d |\n", a, b, e, c, h}'
echo
grep -o 'attack-detail: .*' "$log" | sed 's/^attack-detail: /- /' || true
grep -o 'attack-mismatch: .*' "$log" | sed 's/^attack-mismatch: /! /' || true
