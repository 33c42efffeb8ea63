#!/usr/bin/env bash
# What one executed instruction costs through `portolan test`, against the floor: the `lua5.4`
# interpreter running `pcall(h)` with `h = function() n = n + 1 end`, and against the router a team
# would write in plain Lua instead (Benchmarks/scripts/PlainRouter.lua, in `lua5.4`, routing the same
# chain the same way). All three are timed the same way,
# side by side in one run: a short and a long run of the same work, so that start-up, loading and
# reporting cancel out in the difference.
#
#   Benchmarks/scripts/route-cost.sh [PORTOLAN]      # default: a release build of this checkout
#   COUNT=instructions Benchmarks/scripts/route-cost.sh PORTOLAN
#
# With COUNT=instructions, each command runs under callgrind instead of hyperfine and the table is
# in instructions (Ir), which the machine's load does not move; rounds are fewer (20 and 220), as
# callgrind runs about fifty times slower. PORTOLAN should then be a `--static-swift-stdlib` build
# (callgrind cannot read this toolchain's shared runtime's debug information); the script strips a
# copy of its debug information.
#
# The app is a chain root > n1 > … > n50 whose every node has Lua enter and leave handlers doing
# `n = n + 1`; one scenario routes root → leaf → root ROUNDS times (100 instructions a round).
# The plain router runs the same chain and rounds in `lua5.4`.
# Needs lua5.4 and hyperfine (Debian packages of the same names).
set -euo pipefail
cd "$(dirname "$0")/../.."
portolan=${1:-}
if [ -z "$portolan" ]; then
  swift build -c release --product portolan >&2
  portolan="$(swift build -c release --show-bin-path)/portolan"
fi
count=${COUNT:-seconds}
case "$count" in
  seconds) timer=hyperfine short=100 long=2100 unit=ns scale=1e9 ;;
  instructions) timer=valgrind short=20 long=220 unit=Ir scale=1 ;;
  *) echo "route-cost.sh: COUNT is seconds or instructions, not $count" >&2; exit 1 ;;
esac
for tool in lua5.4 "$timer"; do
  command -v "$tool" >/dev/null || { echo "route-cost.sh needs $tool (apt-get install $tool)" >&2; exit 1; }
done

depth=50
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$count" = instructions ]; then
  objcopy --strip-debug "$portolan" "$work/portolan"
  portolan="$work/portolan"
fi

{
  echo 'n = 0'
  echo 'local function h() n = n + 1 end'
  printf 'portolan.app '
  for ((level = 0; level < depth; level++)); do printf '{ id = "n%d", enter = h, leave = h, children = { ' "$level"; done
  printf '{ id = "n%d", enter = h, leave = h }' "$depth"
  for ((level = 0; level < depth; level++)); do printf ' } }'; done
  echo
} > "$work/app.lua"
for rounds in $short $long; do
  cat > "$work/routes-$rounds.lua" <<LUA
local deep = {}
for level = 0, $depth do deep[#deep + 1] = "n" .. level end
scenario("routes", function()
  for _ = 1, $rounds do
    assert(portolan.route(deep))
    assert(portolan.route { "n0" })
  end
end)
LUA
done

for rounds in $short $long; do
  cat > "$work/plain-$rounds.lua" <<LUA
local PlainRouter = dofile("Benchmarks/scripts/PlainRouter.lua")
n = 0
local function h() n = n + 1 end
local leaf = { id = "n$depth", enter = h, leave = h }
for level = $depth - 1, 0, -1 do leaf = { id = "n" .. level, enter = h, leave = h, children = { leaf } } end
local router = PlainRouter.new(leaf)
local deep = {}
for level = 0, $depth do deep[#deep + 1] = "n" .. level end
for _ = 1, $rounds do
  assert(router:route(deep))
  assert(router:route { "n0" })
end
LUA
done

# Each measured command must succeed: a run cut short (a scenario past `portolan test`'s time
# limit, which callgrind's slowness reaches) routes fewer times than the arithmetic below assumes,
# and would be reported as a faster engine. So a failure stops the script with the command's output.
# Under callgrind the scenario limit is raised far past what the long run needs.
scenario_limit=()
[ "$count" = instructions ] && scenario_limit=(--timeout 3600)
failed() {
  echo "route-cost.sh: this run failed, so it measures nothing: $1" >&2
  cat "$work/out" >&2
  return 1
}

# Median seconds of a command, from hyperfine's JSON (hyperfine itself fails on a failed run).
seconds() {
  hyperfine --warmup 2 --runs "${RUNS:-10}" --export-json "$work/t.json" "$@" >"$work/out" 2>&1 || failed "$*" || return 1
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$work/t.json"
}

# Instructions a command executes, from callgrind's summary line.
instructions() {
  eval "valgrind --tool=callgrind --callgrind-out-file=$work/callgrind.out $1" >"$work/out" 2>&1 || failed "$1" || return 1
  awk '/^summary:/ { print $2 }' "$work/callgrind.out"
}

instructions=$(( (long - short) * 2 * depth ))
route_short=$("$count" "$portolan test ${scenario_limit[*]} --app $work/app.lua $work/routes-$short.lua")
route_long=$("$count" "$portolan test ${scenario_limit[*]} --app $work/app.lua $work/routes-$long.lua")
calls=$instructions
plain_short=$("$count" "lua5.4 $work/plain-$short.lua")
plain_long=$("$count" "lua5.4 $work/plain-$long.lua")
lua_short=$("$count" "lua5.4 -e 'n = 0 h = function() n = n + 1 end for i = 1, $short * 100 do pcall(h) end'")
lua_long=$("$count" "lua5.4 -e 'n = 0 h = function() n = n + 1 end for i = 1, $long * 100 do pcall(h) end'")

python3 - "$route_short" "$route_long" "$lua_short" "$lua_long" "$plain_short" "$plain_long" "$instructions" "$calls" "$scale" "$unit" <<'PY'
import sys
rs, rl, ls, ll, ps, pl, instructions, calls, scale = map(float, sys.argv[1:10])
unit = sys.argv[10]
per_instruction = (rl - rs) / instructions * scale
per_pcall = (ll - ls) / calls * scale
per_plain = (pl - ps) / instructions * scale
print(f"| measure | {unit} | × lua5.4 pcall(h) | × plain Lua router |")
print("|---|---|---|---|")
print(f"| lua5.4: pcall(h), h = function() n = n + 1 end | {per_pcall:.0f} | 1.0 | {per_pcall / per_plain:.2f} |")
print(f"| lua5.4: one executed instruction of PlainRouter.lua | {per_plain:.0f} | {per_plain / per_pcall:.1f} | 1.0 |")
print(f"| portolan test: one executed instruction, Lua enter/leave | {per_instruction:.0f} | {per_instruction / per_pcall:.1f} | {per_instruction / per_plain:.2f} |")
PY
