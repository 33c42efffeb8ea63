#!/usr/bin/env bash
# Installs the Debian packages Portolan's build and tests need, when they are missing.
# Idempotent and silent when nothing is missing; works as root without sudo.
set -euo pipefail

# chromium: the coverage report's browser test loads the HTML in headless Chromium (about 300 MB
# installed; the first install takes a minute or two, later runs only check dpkg).
# chromium-driver: Selenium drives that Chromium in the browser tests (Tests/Browser), which also
# need the selenium Python package, installed with pip below.
# libcurl4-openssl-dev: scripts/install.sh links portolan-inspector (the REPL's live inspector's
# server) with Foundation's networking statically, which needs libcurl to link against.
# lua-check: luacheck, which scripts/test.sh runs on the Lua compiled into the host.
# lua5.4: the stock interpreter, which runs Lua's own test files beside the sandbox
# (LuaTestSuiteTests) and compiles the built-in chunks (scripts/compile-module.lua).
# python3: scripts/sizes.py, the file and function size check that scripts/test.sh runs.
REQUIRED_PACKAGES=(liblua5.4-dev libedit-dev pkg-config tmux chromium chromium-driver libcurl4-openssl-dev lua-check lua5.4 python3)

missing_packages() {
    missing=()
    for package in "${REQUIRED_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
}
missing_packages

# The browser tests' Selenium, from PyPI, for the python3 that scripts/test.sh runs.
install_selenium() {
    if ! python3 -c "import selenium" >/dev/null 2>&1; then
        echo "bootstrap: installing selenium (pip)" >&2
        python3 -m pip install --quiet --disable-pip-version-check selenium >&2
    fi
}

if [ ${#missing[@]} -eq 0 ]; then
    install_selenium
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    run_as_root=()
elif command -v sudo >/dev/null 2>&1; then
    run_as_root=(sudo)
else
    echo "bootstrap: missing packages ${missing[*]}, and neither root nor sudo is available" >&2
    exit 1
fi

# Two bootstraps at once (two clones tested side by side) would race for apt's locks and one would
# fail, so ours take turns on a lock of their own and the later one installs only what is still
# missing. A foreign apt (a fresh machine's daily update) is waited for by apt itself.
exec 9>"${TMPDIR:-/tmp}/portolan-bootstrap.lock"
flock 9
missing_packages
if [ ${#missing[@]} -gt 0 ]; then
    echo "bootstrap: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt_waiting=(-o DPkg::Lock::Timeout=600)
    "${run_as_root[@]}" apt-get "${apt_waiting[@]}" update -qq >/dev/null
    "${run_as_root[@]}" apt-get "${apt_waiting[@]}" install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
exec 9>&-
install_selenium
