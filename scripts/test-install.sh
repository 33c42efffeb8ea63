#!/usr/bin/env bash
# Installs portolan into a temporary prefix with scripts/install.sh and checks the result as a
# user would meet it: from another directory, with no Swift toolchain libraries, with its man page.
# scripts/test.sh runs it after the Swift tests (the release build is most of its cost).
#
#   bash scripts/test-install.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

fail() {
    echo "test-install.sh: $*" >&2
    exit 1
}

prefix="$work/prefix"
bash "$root/scripts/install.sh" "$prefix" || fail "scripts/install.sh $prefix failed"
binary="$prefix/bin/portolan"
manual="$prefix/share/man/man1/portolan.1"
[ -x "$binary" ] || fail "no executable $binary"
[ -s "$manual" ] || fail "no man page $manual"

# Idempotent: a second run into the same prefix succeeds and leaves the same files.
binary_sum="$(sha256sum < "$binary")"
inspector="$prefix/bin/portolan-inspector"
[ -x "$inspector" ] || fail "no executable $inspector"
manual_sum="$(sha256sum < "$manual")"
bash "$root/scripts/install.sh" "$prefix" >/dev/null || fail "a second scripts/install.sh $prefix failed"
[ "$(sha256sum < "$manual")" = "$manual_sum" ] || fail "a second install changed the man page"
[ "$(sha256sum < "$binary")" = "$binary_sum" ] || fail "a second install changed the binary"

# No Swift runtime library is loaded from the toolchain; Lua and libedit are the system's.
libraries="$(ldd "$binary")"
for installed in "$binary" "$inspector"; do
    if ldd "$installed" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime'; then
        fail "the installed $installed links Swift runtime libraries dynamically"
    fi
done
# The REPL's binary stays free of the inspector's HTTP server and what it brings (libcurl).
if grep -q 'libcurl' <<<"$libraries"; then
    fail "the installed portolan links libcurl: the inspector's server belongs in portolan-inspector"
fi
grep -q 'liblua5.4' <<<"$libraries" || fail "the installed binary does not link the system's liblua5.4"

# From a directory that is not the checkout, with the toolchain's libraries out of reach.
mkdir "$work/elsewhere"
cd "$work/elsewhere"
run() { env -u LD_LIBRARY_PATH PATH=/usr/bin:/bin "$binary" "$@"; }

version="$(run --version)" || fail "portolan --version failed"
[[ "$version" =~ ^portolan\ [0-9]+\.[0-9]+\.[0-9]+\ \(Lua\ 5\.4\.[0-9]+ ]] || fail "unexpected --version: $version"

report="$(run test --app "$root/Examples/movies/app.lua" "$root"/Examples/movies/scenarios/*.lua)" \
    || fail "portolan test on Examples/movies failed:
$report"
grep -q 'passed' <<<"$report" || fail "portolan test printed no summary: $report"

graph="$(run graph "$root/Examples/movies/app.lua")" || fail "portolan graph failed"
grep -q 'dashboard' <<<"$graph" || fail "portolan graph does not show the demo app's dashboard: $graph"

# The REPL on the built-in demo app, its input piped: the demo is compiled in, no file needed.
transcript="$(printf '%s\n' '/root/dashboard/wishlist' ':tree' | run repl)" || fail "portolan repl on the demo app failed"
grep -q 'wishlist' <<<"$transcript" || fail "the REPL did not route to the wishlist: $transcript"

# The REPL starts the installed inspector beside it, and both end with the input.
inspected="$(printf '%s\n' '/settings' | run repl --inspect 0 2>&1)" || fail "portolan repl --inspect 0 failed: $inspected"
grep -q '^inspector: http://127.0.0.1:[0-9]*/' <<<"$inspected" || fail "the REPL did not start the inspector: $inspected"

# The man page renders and names every subcommand.
page="$(MANWIDTH=100 man -l "$manual" 2>/dev/null)" || fail "man -l $manual failed"
grep -q '^PORTOLAN(1)' <<<"$page" || fail "the man page has no PORTOLAN(1) header"
# The subcommands as --help lists them: a name indented by two spaces (wrapped text is indented more).
subcommands="$(run --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | awk '/^  [^ ]/ { print $1 }')"
[ -n "$subcommands" ] || fail "portolan --help lists no subcommands"
for subcommand in $subcommands; do
    grep -Eq "^ +$subcommand( |$)" <<<"$page" || fail "the man page does not describe the subcommand $subcommand"
done

echo "test-install.sh: installed into a temporary prefix; --version, test, graph, repl, repl --inspect and the man page ($(wc -w <<<"$subcommands") subcommands) check out"
