#!/usr/bin/env bash
# The whole test suite under ThreadSanitizer and AddressSanitizer:
#
#   bash scripts/sanitize.sh [thread|address|all] [swift test options]     (all by default)
#
# Options after the first argument go to `swift test`: `--filter ScenarioRunnerTests` runs one
# suite, `--no-parallel` one test at a time.
#
# Each sanitizer builds in a scratch path of its own (.build-tsan, .build-asan; `.build*` is
# git-ignored), so the normal `.build` is never touched. The builds are not taken under the shared
# build lock (/tmp/portolan-build.lock): a sanitized build from scratch holds both cores for many
# minutes, and everyone else's builds would wait that long. They run under `nice -n 19` instead,
# always, and so do the tests.
#
# What runs sanitized:
# - the Swift code of every target of the package, tests included, and of its dependencies
#   (ArgumentParser, PropertyBased): `swift test --sanitize=…` instruments them all;
# - the C shim, Sources/CLuaShim: SwiftPM passes -fsanitize to the package's C targets too (its
#   objects call __tsan_read4, __asan_load8 and the like);
# - the `portolan` binary that CLITests drive, the REPL under tmux included: the tests find the
#   binary beside the test bundle (Tests/CLITests/PortolanBinary.swift), which in this scratch
#   path is the sanitized build. Its processes inherit the options below, so their reports land
#   in the same directory as the test process's. (Left on stderr, a report would be swallowed by
#   a test that captures the output, or drawn on the REPL's screen.)
#
# What does not:
# - liblua5.4, Debian's build: TSan cannot see memory accesses made inside Lua's own code, only
#   those of the shim and of Swift; ASan sees Lua's heap only through malloc and free (a double or
#   invalid free is caught, an overflow inside liblua is not). Lua's blocks over 256 bytes come
#   from malloc through the shim's allocator and are tracked as blocks; its small blocks come from
#   the state's pool (SmallBlockPool.c), which poisons a free block and the bytes past what Lua
#   asked for, so a use after free or an overflow into a class's slack is still reported (a double
#   free of a pooled block is not).
# - Swift's runtime and standard library, Foundation, Dispatch and libedit: prebuilt, likewise.
#   One consequence: Synchronization.Mutex on Linux takes a contended lock in prebuilt code, so
#   TSan misses that acquisition (see tsan.supp and CONTRIBUTING.md, "Sanitizers").
#
# One thing is added to the build: under ThreadSanitizer the C shim defines __longjmp_chk
# (Sources/CLuaShim/ThreadSanitizerLongjmp.c), so that the longjmp by which liblua5.4 raises every Lua
# error goes through TSan; without it TSan's shadow stack overflowed and the runtime died mid-run
# (scripts/sanitize/longjmp-under-tsan.sh shows why, without Lua).
#
# Reports go to .build-<tsan|asan>/reports/<tsan|asan>.<pid>, one file per process; the script
# prints their headlines and fails when the tests fail, any report was made, or the sanitizer's
# runtime died.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

run() {
    local sanitizer=$1 short=$2
    local scratch="$root/.build-$short" reports="$root/.build-$short/reports"
    echo "== swift test --sanitize=$sanitizer (scratch path .build-$short)"
    rm -rf "$reports"
    mkdir -p "$reports"
    case $short in
    tsan)
        # halt_on_error=0: report every race and go on; exitcode=0 at the end of each process, so
        # that a CLI test is judged on its own output and the reports are counted here instead.
        export TSAN_OPTIONS="log_path=$reports/tsan halt_on_error=0 exitcode=0 second_deadlock_stack=1 print_suppressions=1 suppressions=$root/scripts/sanitize/tsan.supp"
        ;;
    asan)
        # A memory error aborts the process that made it (ASan's halt_on_error, on by default),
        # so a test fails at the first one; the report says where.
        # Leaks are checked at each process's exit (LeakSanitizer); lsan.supp lists the known
        # ones of Foundation, libedit and XCTest, and those of tests that hang a task on purpose.
        export ASAN_OPTIONS="log_path=$reports/asan detect_leaks=1 detect_stack_use_after_return=1 strict_string_checks=1 check_initialization_order=1"
        export LSAN_OPTIONS="suppressions=$root/scripts/sanitize/lsan.supp print_suppressions=1"
        ;;
    esac
    local status=0
    nice -n 19 swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    nice -n 19 swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "${test_options[@]}" 2>&1 \
        | tee "$reports/test.log" || status=$?
    unset TSAN_OPTIONS ASAN_OPTIONS LSAN_OPTIONS

    # A headline per report: a race, a heap overflow, a leak. Suppressed ones are counted too
    # (print_suppressions), so that none is hidden silently.
    local files count
    files=$(find "$reports" -name "$short.*" | sort)
    count=$( ([ -z "$files" ] || cat $files) \
        | grep -c -E '^(==[0-9]+==)?(WARNING: ThreadSanitizer|ERROR: (AddressSanitizer|LeakSanitizer))' || true)
    echo "== $sanitizer: swift test exited $status; $count report(s)"
    if [ -n "$files" ]; then
        { grep -h -E '^SUMMARY' $files || true; } | sed 's/ in \$.*//' | sort | uniq -c | sort -rn
        # TSan lists "COUNT race:PATTERN", LSan "COUNT BYTES PATTERN".
        { grep -h -E '^ *[0-9]+ race:|^ +[0-9]+ +[0-9]+ [^ ]+$' $files || true; } \
            | awk '{count[$NF] += $1} END {for (p in count) print "  suppressed: " count[p] " x " p}'
        # (For TSan a count of reports; for LSan, of leaked blocks.)
    fi
    [ "$count" = 0 ] || status=1
    # The sanitizer's runtime may die itself (a SEGV or a failed CHECK inside it, then "nested bug in
    # the same thread, aborting"). It then exits with TSAN_OPTIONS' exitcode, 0 here, so only its
    # lines tell, in a report file or on stderr. That is how Lua errors overflowing TSan's shadow
    # stack showed (Sources/CLuaShim/ThreadSanitizerLongjmp.c, CONTRIBUTING.md "Sanitizers").
    local deaths
    deaths=$( ([ -z "$files" ] || cat $files; cat "$reports/test.log") \
        | grep -E 'ERROR: ThreadSanitizer|Sanitizer: CHECK failed|Sanitizer: nested bug|Sanitizer:DEADLYSIGNAL' || true)
    if [ -n "$deaths" ]; then
        echo "== $sanitizer: the sanitizer's runtime died:"
        echo "$deaths" | sort | uniq -c | sort -rn | head -5
        status=1
    fi
    # A test process the sanitizer itself aborted ("ThreadSanitizer: nested bug in the same
    # thread, aborting") was seen to leave `swift test` exiting 0: without Swift Testing's closing
    # line, the run did not finish.
    if ! grep -q -E '^.{0,4}Test run with [0-9]+ tests?' "$reports/test.log"; then
        echo "== $sanitizer: the test run ended without its closing line: a test process died"
        status=1
    fi
    return $status
}

which=${1:-all}
test_options=("${@:2}")
case $which in
thread) run thread tsan ;;
address) run address asan ;;
all)
    failed=0
    run thread tsan || failed=1
    run address asan || failed=1
    exit $failed
    ;;
*)
    echo "usage: $0 [thread|address|all] [swift test options]" >&2
    exit 2
    ;;
esac
