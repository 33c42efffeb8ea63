#!/usr/bin/env bash
# Builds MutexUnderTSan.swift with ThreadSanitizer and runs it three ways: with Synchronization.Mutex,
# with the Mutex plus TSan's annotations, and with a pthread mutex. Prints each run's count and how
# many TSan reports it made. tsan.supp and CONTRIBUTING.md ("Sanitizers") say what it showed.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
nice -n 19 swiftc -sanitize=thread -Onone -g MutexUnderTSan.swift -o "$work/mutex-under-tsan"
for lock in mutex annotated pthread; do
    # exitcode=0: a report must not stop the loop; the reports are counted from the log instead.
    TSAN_OPTIONS="exitcode=0 log_path=$work/$lock" nice -n 19 "$work/mutex-under-tsan" "$lock"
    reports=$(cat "$work/$lock".* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer' || true)
    echo "  $lock: $reports ThreadSanitizer report(s)"
    [ "$reports" = 0 ] || grep -m1 -A14 '^WARNING: ThreadSanitizer' "$work/$lock".*
done
