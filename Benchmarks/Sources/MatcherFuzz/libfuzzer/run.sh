#!/bin/sh
# Coverage-guided fuzzing of the URL layer with libFuzzer and AddressSanitizer.
#
#     Benchmarks/Sources/MatcherFuzz/libfuzzer/run.sh [libFuzzer options]   # default: -runs=1000000
#
# Compiles the URL sources (and ContextValue, their only dependency) with this entry into one
# binary, since a SwiftPM executable cannot take libFuzzer's `main`. The corpus is kept in
# $CORPUS (default /tmp/portolan-url-corpus).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../../.." && pwd)
out=${OUT:-/tmp/portolan-url-fuzzer}
corpus=${CORPUS:-/tmp/portolan-url-corpus}
mkdir -p "$corpus"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name PortolanURLFuzz \
    "$root"/Sources/Portolan/URL/*.swift "$root"/Sources/Portolan/URL/Validators/*.swift "$root/Sources/Portolan/Model/ContextValue.swift" \
    "$here/URLFuzzTarget.swift" -o "$out"
if [ $# -eq 0 ]; then set -- -runs=1000000; fi
exec "$out" "$@" "$corpus"
