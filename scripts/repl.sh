#!/usr/bin/env bash
# Installs what is missing, builds, and starts the REPL (on the built-in demo app, or on APP.lua).
#   bash scripts/repl.sh [APP.lua]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/bootstrap.sh"
(cd "$root" && swift build --product portolan >&2)
# Run from the caller's directory, so that a relative APP.lua path means what they typed.
exec "$root/.build/debug/portolan" repl "$@"
