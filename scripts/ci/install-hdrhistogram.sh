#!/usr/bin/env bash
# Fetches HdrHistogram's Java library (the reference implementation) from
# Maven Central for internal/results/hlog_java_test.go: it runs the library's
# own HistogramLogProcessor on the HDR interval logs tsbench writes, so the
# logs are proven readable by HdrHistogram's tools, not only by the Go port we
# write them with. Called by .ci/run while the network is there; harmless when
# the jar is already cached. Prints the jar's path on stdout (messages go to
# stderr), so a caller can do JAR=$(scripts/ci/install-hdrhistogram.sh).
set -euo pipefail

VERSION=2.2.2
# Pinned rather than taken from the .sha1 beside the jar: a checksum fetched
# from the same server proves only that the transfer was whole, not that the
# artifact is the one the test was written against. (Maven Central's
# published SHA-1 of this jar is 7959933ebcc0f05b2eaa5af0a0c8689fa257b15c.)
SHA256=22d1d4316c4ec13a68b559e98c8256d69071593731da96136640f864fa14fad8
URL=https://repo1.maven.org/maven2/org/hdrhistogram/HdrHistogram/$VERSION/HdrHistogram-$VERSION.jar
SERVICE=hdrhistogram
# shellcheck source=../services/lib.sh
. "$(dirname "$0")/../services/lib.sh" # log, die, apt_install, CACHE_DIR
JAR=$CACHE_DIR/hdrhistogram/HdrHistogram-$VERSION.jar

verified() { [ -f "$1" ] && echo "$SHA256  $1" | sha256sum --check --status; }

# The test runs the jar, so a machine without Java gets the same JRE the
# Java-based services (Cassandra, IoTDB, QuestDB) install.
command -v java >/dev/null || apt_install openjdk-17-jre-headless

if verified "$JAR"; then
  log "HdrHistogram $VERSION already cached"
  echo "$JAR"
  exit 0
fi
command -v curl >/dev/null || apt_install curl ca-certificates
mkdir -p "$(dirname "$JAR")"
# Download beside the target and rename only once verified, so an interrupted
# or corrupted download never leaves a jar the test would trust.
tmp=$(mktemp "$JAR.XXXXXX")
trap 'rm -f "$tmp"' EXIT
log "fetching $URL"
curl -fsSL --retry 3 -o "$tmp" "$URL" || die "could not download $URL"
verified "$tmp" || die "checksum mismatch for $URL: got $(sha256sum "$tmp" | cut -d' ' -f1), want $SHA256"
chmod 644 "$tmp"
mv "$tmp" "$JAR"
log "installed HdrHistogram $VERSION"
echo "$JAR"
