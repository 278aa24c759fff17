#!/usr/bin/env bash
# Installs headless Chromium (Debian packages) for the HTML report tests:
# they open a generated report in a real browser and check that every chart
# drew its data points (internal/htmlreport/browser). Called by .ci/run while
# the network is there; harmless when Chromium is already installed.
set -euo pipefail
SERVICE=chromium
# shellcheck source=../services/lib.sh
. "$(dirname "$0")/../services/lib.sh" # log, apt_install
apt_install chromium fonts-liberation
log "$(chromium --version)"
