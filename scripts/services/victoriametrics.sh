#!/usr/bin/env bash
# VictoriaMetrics (single node), HTTP on 127.0.0.1, in a throwaway data
# directory, in one of two releases:
#   victoriametrics.sh          the current release, built from its module
#                               with the Go toolchain (pinned: VERSION), on 8428;
#   victoriametrics-1.79.sh     Debian's 1.79 (2022), on 8438: the old-version
#                               check, since users still run old releases too.
# Retention is 100 years: the default (1 month) silently drops benchmark data
# with old timestamps. The result cache is off so that repeated queries
# measure the engine, not the cache.
SERVICE=${TSBENCH_VM_SERVICE:-victoriametrics}
. "$(dirname "$0")/lib.sh"

# The newest release that builds with this machine's Go 1.26: v1.152.0's
# go.mod requires go >= 1.27.1 (and v1.154 go >= 1.27.2). Their modules all
# resolve through the module proxy (checked with go1.27.1, go install -n), so
# the toolchain, not a missing module, is what holds them back.
VERSION=v1.151.0
CURRENT_BIN="$CACHE_DIR/victoriametrics-$VERSION/victoria-metrics"

if [ "$SERVICE" = victoriametrics-1.79 ]; then
  PORT=${TSBENCH_VICTORIAMETRICS_OLD_PORT:-8438}
  BIN=/usr/bin/victoria-metrics
  RELEASE="$(deb_version victoria-metrics) (Debian)"
else
  PORT=${TSBENCH_VICTORIAMETRICS_PORT:-8428}
  BIN=$CURRENT_BIN
  RELEASE=$VERSION
fi

# install_current: go install of the pinned release into the cache, with its
# version compiled in so that the server reports it (/metrics vm_app_version).
install_current() {
  [ -x "$CURRENT_BIN" ] && return 0
  command -v go >/dev/null || die "the Go toolchain is needed to build VictoriaMetrics $VERSION"
  log "building VictoriaMetrics $VERSION with $(go version | cut -d' ' -f3)"
  GOBIN=$(dirname "$CURRENT_BIN") GOFLAGS=-mod=mod go install "$GO_LEAN_GCFLAGS" \
    -ldflags "$GO_LEAN_LDFLAGS -X github.com/VictoriaMetrics/VictoriaMetrics/lib/buildinfo.Version=victoria-metrics-$VERSION" \
    "github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics@$VERSION" || die "could not build VictoriaMetrics $VERSION"
}

case "${1:-}" in
install)
  if [ "$SERVICE" = victoriametrics-1.79 ]; then apt_install victoria-metrics; else install_current; fi
  ;;
start|resume)
  # resume starts it again on the data a crash left (tsbench run --crash).
  exit_if_up "$PORT"
  [ -x "$BIN" ] || die "VictoriaMetrics $RELEASE is not installed: run '$0 install'"
  if [ "$1" = start ]; then rm -rf "$DIR"; fi
  mkdir -p "$DIR"
  start_daemon "$SERVICE" "$DIR/log" "$BIN" -storageDataPath="$DIR/data" \
    -httpListenAddr=127.0.0.1:"$PORT" -retentionPeriod=100y -search.disableCache \
    -search.latencyOffset=0s -dedup.minScrapeInterval=1ms
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
  ready "$RELEASE" "http://127.0.0.1:$PORT (tsbench run --target victoriametrics --set PORT=$PORT)"
  ;;
stop)
  stop_pid "$SERVICE"
  ;;
status)
  is_running "$SERVICE"
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
