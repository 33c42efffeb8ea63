#!/usr/bin/env bash
# Installs what is missing, builds, and starts the REPL (on the built-in demo app, or on APP.lua).
#   bash scripts/repl.sh [--watch] [--inspect [PORT]] [APP.lua]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/bootstrap.sh"
(cd "$root" && swift build --product portolan >&2)
# The live inspector's server is a program of its own, built only when asked for: FlyingFox makes
# a first build longer.
for argument in "$@"; do
    if [ "$argument" = "--inspect" ]; then
        (cd "$root" && swift build --product portolan-inspector >&2)
        break
    fi
done
# Run from the caller's directory, so that a relative APP.lua path means what they typed.
exec "$root/.build/debug/portolan" repl "$@"
