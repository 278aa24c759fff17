#!/usr/bin/env bash
# Installs headless Chromium (Debian packages) for the HTML report tests:
# they open a generated report in a real browser and check that every chart
# drew its data points (internal/htmlreport/browser). Called by .ci/run while
# the network is there; harmless when Chromium is already installed.
set -euo pipefail
missing=()
for p in chromium chromium-driver fonts-liberation; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "chromium: already installed ($(chromium --version 2>/dev/null || echo '?'))"
  exit 0
fi
echo "chromium: installing ${missing[*]}"
if [ ! -f /tmp/.tsbench-apt-updated ]; then
  apt-get -o DPkg::Lock::Timeout=600 update -qq && touch /tmp/.tsbench-apt-updated
fi
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "chromium: $(chromium --version)"
