#!/usr/bin/env bash
# Installs what is missing, then runs every test: the Swift suite and the example scenarios.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
swift build
swift test
