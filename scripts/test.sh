#!/usr/bin/env bash
# Installs what is missing, then runs every test: the Swift suite, the example scenarios and the
# browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh

# The Lua compiled into the host and the tools, and into the fuzzers and the soak (settings in
# .luacheckrc); the demo app is a link to Examples/movies/app.lua, an app script rather than part
# of Portolan.
find Sources Tests/FuzzSupport -name '*.lua' -type f -print0 | sort -z | xargs -0 luacheck --no-color

# No file in Sources over 400 lines, no function over 60 (CONTRIBUTING.md).
python3 scripts/sizes.py

# No interface only Linux has outside the platform's seams (docs/embedding.md, "Platforms").
python3 scripts/linux-only.py

swift build
swift test

# The whole suite again with the portable paths forced (the ones an Apple build takes: a pipe for
# the wake-up, one component at a time for confined files), in a scratch path of its own so that
# neither build undoes the other. PlatformPathsTests fails if this run is not the portable build.
portable=(--scratch-path .build-portable -Xswiftc -DPORTOLAN_PORTABLE -Xcc -DPORTOLAN_PORTABLE)
PORTOLAN_EXPECT_PORTABLE=1 swift test "${portable[@]}"

# The example apps' scenarios, through the built binary as a user runs them.
portolan="$(swift build --show-bin-path)/portolan"
"$portolan" test --app Examples/movies/app.lua Examples/movies/scenarios/*.lua
"$portolan" test --app Examples/portus/app.lua Examples/portus/portus.lua
# Saved states of earlier releases must survive the rules (docs/snapshots.md): exit 1 when one breaks.
for saved in Examples/movies/snapshots/*.json; do
    "$portolan" snapshot migrate "$saved" --app Examples/movies/app.lua
done

# The explorer (docs/explore.md): no finding on the demo app; on the fault fixture, findings (exit
# 1), and exit 0 with --fail-on none (ExploreFaultTests checks each of its 25 planted faults).
"$portolan" explore Examples/movies/app.lua --depth 3
"$portolan" explore Examples/explore-faults/app.lua --fail-on none >/dev/null
if "$portolan" explore Examples/explore-faults/app.lua >/dev/null; then
    echo "portolan explore found nothing in Examples/explore-faults" >&2
    exit 1
fi

# The browser tests: the SVG and the coverage page fit a 1280×800 window, and the REPL's live
# inspector in headless Chromium (Selenium).
PORTOLAN_BINARY="$portolan" python3 Tests/Browser/run.py

# The installable tool: scripts/install.sh into a temporary prefix, then the installed binary run
# from elsewhere, ldd and the man page (its release build is most of this step's time).
bash scripts/test-install.sh
