#!/usr/bin/env bash
# Thanos: Receive (a remote write receiver storing into a local TSDB) and
# Query (PromQL over Receive's Store API), on 127.0.0.1, in a throwaway data
# directory: built from its Go module with the Go toolchain (pinned:
# VERSION; its go.mod asks for Go 1.26.10, which the go command fetches
# through the module proxy as golang.org/toolchain, and has replace
# directives, which go install refuses, so the module is built as the main
# module: go_build_cached). Ports:
#   Receive: remote write 127.0.0.1:10908 (/api/v1/receive), gRPC :10907,
#            HTTP (metrics, readiness) :10909
#   Query:   HTTP (PromQL) 127.0.0.1:10904, gRPC :10903
# Receive's Cap'n Proto replication listener, unused here, is bound to
# 127.0.0.1 too (its default, the wildcard address, takes the port from a
# ring's nodes on 127.0.0.12 ..., thanos-cluster.sh, started beside it).
# Receive keeps no object storage (no --objstore.config: blocks stay in its
# TSDB); its TSDB takes data 100 years back, out of order too
# (--tsdb.out-of-order.time-window) and keeps it for ever (--tsdb.retention=0d):
# tsbench writes data stamped years back. Retention 0d also keeps Receive's
# tenant pruning off: v0.42.5 prunes in the first minute of every fourth
# hour (twice the 2h block), and a Receive started in that minute panics
# when the pruning reads a tenant whose TSDB is still opening (a nil
# *tsdb.DB in shouldBeMarkedInactive; seen in CI at 00:00:02 on a restart). Every series carries the tenant's
# label tenant_id="default-tenant" and Receive's external label
# thanos_receive="0".
SERVICE=thanos
. "$(dirname "$0")/lib.sh"

VERSION=v0.42.5
RELEASE=0.42.5
TOOLCHAIN=go1.26.10
PORT=${TSBENCH_THANOS_PORT:-10908}             # Receive's remote write
GRPC_PORT=${TSBENCH_THANOS_GRPC_PORT:-10907}   # Receive's Store API
HTTP_PORT=${TSBENCH_THANOS_HTTP_PORT:-10909}   # Receive's metrics and readiness
QUERY_PORT=${TSBENCH_THANOS_QUERY_PORT:-10904} # Query's HTTP API
QUERY_GRPC_PORT=${TSBENCH_THANOS_QUERY_GRPC_PORT:-10903}
BIN="$CACHE_DIR/thanos-$VERSION/thanos"
QUERY=thanos-query # Query's own state directory and pid (svc_dir)

# install_bin: the release as its own build makes it (.promu.yml): tags
# netgo and slicelabels (Thanos' zero-copy labels read Prometheus' labels
# as a slice; built without the tag, Receive panics on Query's first
# Info call), its version compiled in.
install_bin() {
  GOTOOLCHAIN=$TOOLCHAIN go_build_cached "$BIN" "github.com/thanos-io/thanos@$VERSION" ./cmd/thanos \
    -tags netgo,slicelabels "$GO_LEAN_GCFLAGS" \
    -ldflags "$GO_LEAN_LDFLAGS -X github.com/prometheus/common/version.Version=$RELEASE -X github.com/prometheus/common/version.Branch=$VERSION"
}

# start_receive: Receive on the data in $DIR (kept: resume restarts it on
# what a crash left).
start_receive() {
  mkdir -p "$DIR"
  start_daemon "$SERVICE" "$DIR/log" "$BIN" receive --tsdb.path="$DIR/data" \
    --remote-write.address=127.0.0.1:"$PORT" --grpc-address=127.0.0.1:"$GRPC_PORT" \
    --http-address=127.0.0.1:"$HTTP_PORT" --receive.capnproto-address=127.0.0.1:19391 --label='thanos_receive="0"' \
    --tsdb.retention=0d --tsdb.out-of-order.time-window=100y
  wait_http "$HTTP_PORT" /-/ready 120 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
  wait_port "$PORT" 30 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
}

# start_query: Query, reading Receive's Store API. Its active-query log
# goes in its state directory, which puts that directory on its command
# line: stop_pid stops only a process that names the services directory.
start_query() {
  local qdir; qdir=$(svc_dir "$QUERY")
  mkdir -p "$qdir"
  start_daemon "$QUERY" "$qdir/log" "$BIN" query --http-address=127.0.0.1:"$QUERY_PORT" \
    --grpc-address=127.0.0.1:"$QUERY_GRPC_PORT" --endpoint=127.0.0.1:"$GRPC_PORT" \
    --query.active-query-path="$qdir" --log.level=warn --query.timeout=5m
  wait_http "$QUERY_PORT" /-/ready 60 "$(cat "$qdir/pid")" || fail_start "$QUERY" "$qdir/log"
}

# wait_query_sees_receive: waits until Query lists Receive's Store API as
# healthy (checked, without error, after SINCE, the epoch seconds given).
# Before, Query answers every query empty, and after a crash it answers
# "No StoreAPIs available" until its next check of the restarted Receive
# (every 5 s).
wait_query_sees_receive() {
  local since=$1 deadline=$((SECONDS + 60)) body checked
  while :; do
    body=$(http_body "$QUERY_PORT" /api/v1/stores | tr -d ' \n')
    checked=$(sed -n 's/.*"name":"127.0.0.1:'"$GRPC_PORT"'","lastCheck":"\([^"]*\)","lastError":null.*/\1/p' <<<"$body")
    if [ -n "$checked" ] && [ "$(date -d "$checked" +%s 2>/dev/null || echo 0)" -ge "$since" ]; then return 0; fi
    [ $SECONDS -lt $deadline ] || { log "Query does not list Receive's Store API as healthy: $body"; fail_start "$QUERY" "$(svc_dir "$QUERY")/log"; }
    sleep 0.5
  done
}

case "${1:-}" in
install)
  install_bin
  ;;
start|resume)
  # resume starts Receive again on the data a crash left (tsbench run
  # --crash kills the process on the target's port, Receive's), and Query
  # if it is not running.
  [ -x "$BIN" ] || die "Thanos $RELEASE is not installed: run '$0 install'"
  if already_up "$SERVICE" "$PORT" && already_up "$QUERY" "$QUERY_PORT"; then
    log "already running on 127.0.0.1:$PORT (Receive) and :$QUERY_PORT (Query)"
    exit 0
  fi
  if [ "$1" = start ]; then
    stop_pid "$QUERY" >/dev/null 2>&1
    stop_pid "$SERVICE" >/dev/null 2>&1
    rm -rf "$DIR" "$(svc_dir "$QUERY")"
  fi
  since=$(date +%s)
  is_running "$SERVICE" || start_receive
  is_running "$QUERY" || start_query
  wait_query_sees_receive "$since"
  ready "$RELEASE" "Receive http://127.0.0.1:$PORT/api/v1/receive, Query http://127.0.0.1:$QUERY_PORT" \
    "(tsbench run --target thanos --set PORT=$PORT --set target.query_port=$QUERY_PORT)"
  ;;
stop)
  stop_pid "$QUERY"
  stop_pid "$SERVICE"
  ;;
status)
  is_running "$SERVICE" && is_running "$QUERY"
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
