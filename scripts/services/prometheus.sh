#!/usr/bin/env bash
# Prometheus 3 as a remote write receiver, HTTP on 127.0.0.1, in a
# throwaway data directory: built from its Go module with the Go toolchain
# (pinned: VERSION; the module's v0.3MM.P is Prometheus 3.MM.P) without
# service discovery (-tags remove_all_sd: nothing is scraped, and the build
# takes a third of the time), started with
#   --web.enable-remote-write-receiver  /api/v1/write takes remote write 1.0
#                                       and 2.0 (its default messages);
#   --web.enable-otlp-receiver          /api/v1/otlp/v1/metrics takes OTLP/HTTP
#                                       metrics (the prometheus workload's
#                                       write_path=otlp);
#   --web.enable-admin-api              a reset deletes the database's
#                                       earlier series;
#   a configuration with no scrape job, out_of_order_time_window 100y and
#   retention 100y: tsbench writes data stamped years back (START_TIME
#   2022 by default) and out of order, which the in-order head refuses as
#   out of bounds and the default 15 days of retention would delete.
# Prometheus refuses samples more than 10 minutes ahead of its clock (its
# receiver's limit, not configurable).
SERVICE=prometheus
. "$(dirname "$0")/lib.sh"

VERSION=v0.316.0
RELEASE=3.16.0
PORT=${TSBENCH_PROMETHEUS_PORT:-9090}
BIN="$CACHE_DIR/prometheus-$VERSION/prometheus"

# install_bin: go install of the pinned release into the cache, with its
# version compiled in so that the server reports it (buildinfo).
install_bin() {
  [ -x "$BIN" ] && return 0
  command -v go >/dev/null || die "the Go toolchain is needed to build Prometheus $RELEASE"
  log "building Prometheus $RELEASE with $(go version | cut -d' ' -f3)"
  GOBIN=$(dirname "$BIN") GOFLAGS=-mod=mod go install -trimpath -tags remove_all_sd "$GO_LEAN_GCFLAGS" \
    -ldflags "$GO_LEAN_LDFLAGS -X github.com/prometheus/common/version.Version=$RELEASE -X github.com/prometheus/common/version.Branch=$VERSION" \
    "github.com/prometheus/prometheus/cmd/prometheus@$VERSION" || die "could not build Prometheus $RELEASE"
}

case "${1:-}" in
install)
  install_bin
  ;;
start|resume)
  # resume starts it again on the data a crash left (tsbench run --crash).
  exit_if_up "$PORT"
  [ -x "$BIN" ] || die "Prometheus $RELEASE is not installed: run '$0 install'"
  if [ "$1" = start ]; then rm -rf "$DIR"; fi
  mkdir -p "$DIR"
  cat >"$DIR/prometheus.yml" <<'YAML'
# tsbench: no scrape job; data years back and out of order is kept.
storage:
  tsdb:
    out_of_order_time_window: 100y
    retention:
      time: 100y
YAML
  start_daemon "$SERVICE" "$DIR/log" "$BIN" --config.file="$DIR/prometheus.yml" \
    --storage.tsdb.path="$DIR/data" --web.listen-address=127.0.0.1:"$PORT" \
    --web.enable-remote-write-receiver --web.enable-otlp-receiver --web.enable-admin-api
  wait_http "$PORT" /-/ready 120 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
  ready "$RELEASE" "http://127.0.0.1:$PORT (tsbench run --target prometheus --set PORT=$PORT)"
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
