#!/usr/bin/env bash
# Builds LeaksUnderASan.swift with AddressSanitizer and runs each of its cases with leak detection
# on, printing each one's leak summary. lsan.supp and CONTRIBUTING.md ("Sanitizers") say what
# they showed.
set -euo pipefail
cd "$(dirname "$0")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# ld.gold warns about ASan's local symbols on every link; the warnings say nothing here.
nice -n 19 swiftc -sanitize=address -Onone -g LeaksUnderASan.swift -o "$work/leaks" 2>&1 \
    | { grep -v 'Cannot export local symbol' || true; }
for mode in empty-file full-file xml process weak-alive weak-dead; do
    ASAN_OPTIONS="detect_leaks=1 exitcode=0 log_path=$work/$mode" nice -n 19 "$work/leaks" "$mode"
    echo "  $mode: $(cat "$work/$mode".* 2>/dev/null | grep '^SUMMARY' || echo 'no leak')"
done
