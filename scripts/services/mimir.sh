#!/usr/bin/env bash
# Grafana Mimir in monolithic mode (-target=all: distributor, ingester,
# querier, query-frontend, store-gateway, compactor, ruler in one process)
# on the local filesystem, HTTP on 127.0.0.1:9029 (QuestDB's script takes
# Mimir's default 9009), gRPC on 127.0.0.1:9095, in a throwaway data
# directory. Built from its Go module with the Go toolchain: Mimir tags its
# releases mimir-X.Y.Z, which are not Go module versions, so the module
# proxy serves its main branch only, as a pseudo-version (pinned: VERSION);
# its go.mod has replace directives, so it is built as the main module
# (go_build_cached), with its release build's tags.
# The configuration (written below) takes tsbench's data: samples 100 years
# back and out of order (out_of_order_time_window), no rate or series
# limit, UTF-8 metric and label names (name_validation_scheme: utf8; the
# default, legacy, refuses a metric name with a space or a dot), the
# ingesters asked for every range (query_ingesters_within: 0: tsbench's
# data is years old, which Mimir otherwise asks its store-gateways only,
# and they see blocks once shipped and synced, minutes later), one
# replica, rings in memory, every component's address 127.0.0.1 (it looks
# for eth0 or en0 otherwise, and a loopback-only namespace has neither),
# no usage report.
SERVICE=mimir
. "$(dirname "$0")/lib.sh"

VERSION=v1.3.1-0.20260423142704-aced80d74930 # main of 2026-04-23 (aced80d)
PORT=${TSBENCH_MIMIR_PORT:-9029}
GRPC_PORT=${TSBENCH_MIMIR_GRPC_PORT:-9095}
BIN="$CACHE_DIR/mimir-$VERSION/mimir"

install_bin() {
  go_build_cached "$BIN" "github.com/grafana/mimir@$VERSION" ./cmd/mimir -tags netgo,stringlabels "$GO_LEAN_GCFLAGS" \
    -ldflags "$GO_LEAN_LDFLAGS -X github.com/grafana/mimir/pkg/util/version.Version=$VERSION -X github.com/grafana/mimir/pkg/util/version.Branch=main -X github.com/grafana/mimir/pkg/util/version.Revision=aced80d74930"
}

# config: Mimir's configuration for the data in $DIR.
config() {
  cat <<YAML
target: all
multitenancy_enabled: false
usage_stats:
  enabled: false
activity_tracker:
  filepath: $DIR/metrics-activity.log
server:
  http_listen_address: 127.0.0.1
  http_listen_port: $PORT
  grpc_listen_address: 127.0.0.1
  grpc_listen_port: $GRPC_PORT
  log_level: warn
common:
  storage:
    backend: filesystem
blocks_storage:
  filesystem:
    dir: $DIR/blocks
  tsdb:
    dir: $DIR/tsdb
  bucket_store:
    sync_dir: $DIR/tsdb-sync
ruler_storage:
  filesystem:
    dir: $DIR/rules
alertmanager_storage:
  filesystem:
    dir: $DIR/alertmanager
alertmanager:
  data_dir: $DIR/data-alertmanager
compactor:
  data_dir: $DIR/compactor
  sharding_ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
distributor:
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
ingester:
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
    replication_factor: 1
store_gateway:
  sharding_ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
    replication_factor: 1
ruler:
  rule_path: $DIR/data-ruler
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
querier:
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
frontend:
  address: 127.0.0.1
query_scheduler:
  ring:
    instance_addr: 127.0.0.1
    kvstore:
      store: inmemory
limits:
  out_of_order_time_window: 100y
  ingestion_rate: 1000000000
  ingestion_burst_size: 1000000000
  max_global_series_per_user: 0
  max_global_series_per_metric: 0
  name_validation_scheme: utf8
  query_ingesters_within: 0
YAML
}

case "${1:-}" in
install)
  install_bin
  ;;
start|resume)
  # resume starts it again on the data a crash left (tsbench run --crash).
  exit_if_up "$PORT"
  [ -x "$BIN" ] || die "Mimir $VERSION is not installed: run '$0 install'"
  if [ "$1" = start ]; then rm -rf "$DIR"; fi
  mkdir -p "$DIR"
  config >"$DIR/mimir.yaml"
  start_daemon "$SERVICE" "$DIR/log" "$BIN" -config.file="$DIR/mimir.yaml"
  wait_http "$PORT" /ready 180 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
  ready "$VERSION" "http://127.0.0.1:$PORT (tsbench run --target mimir --set PORT=$PORT)"
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
