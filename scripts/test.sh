#!/usr/bin/env bash
# Installs what is missing, then runs every test: the Swift suite and the example scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

# The Lua compiled into the host (settings in .luacheckrc).
luacheck --no-color Sources/PortolanLua/Module/portolan.lua Sources/PortolanLua/Scenarios/ExpectLibrary.lua \
    Sources/PortolanLua/Check/CheckPrelude.lua

swift build
swift test

# The example apps' scenarios, through the built binary as a user runs them.
portolan="$(swift build --show-bin-path)/portolan"
"$portolan" test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua
"$portolan" test --app Examples/portus/app.lua Examples/portus/portus.lua
