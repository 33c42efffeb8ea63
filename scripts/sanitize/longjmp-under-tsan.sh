#!/usr/bin/env bash
# Builds LongjmpUnderTSan.c with -fsanitize=thread (the Swift toolchain's clang, so the same TSan runtime as
# `swift test --sanitize=thread`), twice: as it is, and with -DROUTE_LONGJMP_CHK, which defines __longjmp_chk
# as Sources/CLuaShim/ThreadSanitizerLongjmp.c does. Runs each in its three modes and prints, per run, its
# exit status, how many frames of `deep` (returned long before) TSan's race report shows, and whether the
# runtime died. The file's header and CONTRIBUTING.md ("Sanitizers") say what it shows.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The toolchain's TSan runtime holds libdispatch's interceptors, so it needs libdispatch and BlocksRuntime.
swift_lib="$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift/linux"
link=(-L"$swift_lib" -Wl,-rpath,"$swift_lib" -ldispatch -lBlocksRuntime)
nice -n 19 clang -fsanitize=thread -O1 -g LongjmpUnderTSan.c -o "$work/as-is" "${link[@]}"
nice -n 19 clang -fsanitize=thread -O1 -g -DROUTE_LONGJMP_CHK LongjmpUnderTSan.c -o "$work/routed" "${link[@]}"
for build in as-is routed; do
    for mode in longjmp chk overflow; do
        # exitcode=0: the race report is expected; a death of the runtime is told by its own lines.
        status=0
        TSAN_OPTIONS="exitcode=0" nice -n 19 "$work/$build" "$mode" >"$work/log" 2>&1 || status=$?
        frames=$(grep -c ' deep ' "$work/log" || true)
        died=$(grep -m1 -E 'ERROR: ThreadSanitizer|CHECK failed|nested bug' "$work/log" || true)
        echo "  $build $mode: exit $status, $frames stale frames of deep in the report${died:+; the runtime died: $died}"
    done
done
