#!/usr/bin/env bash
# Installs what is missing, builds, and starts the REPL (on the built-in demo app, or on APP.lua).
#   bash scripts/repl.sh [APP.lua]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build --product portolan >&2
exec .build/debug/portolan repl "$@"
