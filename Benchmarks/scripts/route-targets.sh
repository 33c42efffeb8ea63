#!/usr/bin/env bash
# Issue 36's route-path targets through `PortolanHost`, counted side by side in one run under
# callgrind (instructions, which the machine's load does not move), each against its anchor, a bare
# C `lua_pcall(h)` of `h = function() n = n + 1 end` counted in the same run:
#
#   swift build -c release --package-path Benchmarks --product HostBenchmark --static-swift-stdlib
#   Benchmarks/scripts/route-targets.sh [HOSTBENCHMARK]    # default: that build
#
# Rows: one Lua-handled instruction (`--only lua`), the same route with no handlers (`--only none`),
# one Lua observer per event (`--only observer` less `--only none`), and a route's fixed cost
# (`--only tap`: a route of one instruction on a one-level chain, no handlers; it includes planning
# that one step, which EngineBenchmark puts at about 1,000 Ir). Needs valgrind. A run that fails stops
# the script with its output: a count from a cut run would read as a faster engine.
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=${1:-Benchmarks/.build/release/HostBenchmark}
command -v valgrind >/dev/null || { echo "route-targets.sh needs valgrind (apt-get install valgrind)" >&2; exit 1; }
[ -x "$binary" ] || { echo "route-targets.sh: no HostBenchmark at $binary; build it as the header says" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# valgrind cannot read this toolchain's debug information: count a stripped copy.
objcopy --strip-debug "$binary" "$work/hb"

# Instructions inside the functions `toggle` names, for `HostBenchmark ARGS…`.
instructions() {
  local toggle=$1; shift
  if ! valgrind --tool=callgrind --dump-instr=no --toggle-collect="$toggle" \
      --callgrind-out-file="$work/callgrind.out" "$work/hb" "$@" >"$work/out" 2>&1; then
    echo "route-targets.sh: this run failed, so it measures nothing: HostBenchmark $*" >&2
    cat "$work/out" >&2
    return 1
  fi
  awk '/^summary:/ { print $2 }' "$work/callgrind.out"
}

floor=$(instructions '*bareCallCostSdyFyyXEfU_TA' --only floor)   # the loop of 2,000,000 calls (one name: a toggle nested in another turns it off)
lua=$(instructions '*timedRoutes*' --only lua --rounds 20)    # 20 round trips of 100 instructions
none=$(instructions '*timedRoutes*' --only none --rounds 20)
observer=$(instructions '*timedRoutes*' --only observer --rounds 20)
tap=$(instructions '*timedRoutes*' --only tap --rounds 200)   # 400 routes

python3 - "$floor" "$lua" "$none" "$observer" "$tap" <<'PY'
import sys
floor, lua, none, observer, tap = (float(v) for v in sys.argv[1:6])
pcall = floor / 2_000_000
rows = [
    ("bare C lua_pcall(h), the anchor", pcall, "", ""),
    ("one Lua-handled instruction (--only lua)", lua / 2000, 5 * pcall, f"<= 5x ({5 * pcall:,.0f})"),
    ("the same route with no handlers (--only none)", none / 2000, 1500, "<= 1,500"),
    ("one Lua observer, per event (observer - none)", (observer - none) / 2000, 3 * pcall, f"<= 3x ({3 * pcall:,.0f})"),
    ("a route's fixed cost, one-instruction route (--only tap)", tap / 400, 10_000, "<= 10,000"),
]
print("| measure | Ir | x lua_pcall | target | met |")
print("|---|---|---|---|---|")
for name, value, limit, target in rows:
    met = "" if not target else ("yes" if value <= limit else "no")
    print(f"| {name} | {value:,.0f} | {value / pcall:.1f} | {target} | {met} |")
PY
