#!/usr/bin/env bash
# A Thanos Receive ring of three nodes with a replication factor of 3:
# each node a Receive (remote write, a TSDB of its own, the hashring's
# router and ingester at once) and a Query over all three Receives'
# Store APIs, deduplicating the replicas by their receive_replica label.
# Each node has a loopback address of its own, so that one node can be cut
# off from the others and from the clients (partition):
#   node N at TSBENCH_THANOS_CLUSTER_HOSTS' Nth address (default 127.0.0.2,
#   127.0.0.3, 127.0.0.4): remote write :10908 (/api/v1/receive), Store
#   API :10907, metrics and readiness :10909, Query's PromQL :10904.
# A write acknowledged by any node is on a quorum (2 of 3) of them: the
# ring promises that one node lost, stopped or cut off loses no
# acknowledged sample and leaves every answer complete.
# Actions: install, start, stop, status; resume (starts again whatever
# node process is down, on its data); kill N (SIGKILL to node N's
# Receive, a fault given as a command); partition N / heal N (node N's
# address unreachable and back, lib.sh's cut_address: root in a network
# namespace of its own, as scripts/netns-run makes). Not part of 'all':
# the tests start rings of their own.
SERVICE=thanos-cluster
. "$(dirname "$0")/lib.sh"

VERSION=v0.42.5
BIN="$CACHE_DIR/thanos-$VERSION/thanos" # built by thanos.sh install
read -r -a NODES <<<"${TSBENCH_THANOS_CLUSTER_HOSTS:-127.0.0.2 127.0.0.3 127.0.0.4}"
WRITE_PORT=10908
GRPC_PORT=10907
HTTP_PORT=10909
QUERY_PORT=10904
QUERY_GRPC_PORT=10903

receive_name() { echo "$SERVICE-receive-$1"; }
query_name() { echo "$SERVICE-query-$1"; }

hashring() {
  local eps=() h
  for h in "${NODES[@]}"; do eps+=("\"$h:$GRPC_PORT\""); done
  local IFS=,
  echo "[{\"hashring\": \"default\", \"endpoints\": [${eps[*]}]}]"
}

# start_receive N: node N's Receive, on the data in its state directory
# (kept: resume restarts it on what a kill left). Retention and the
# out-of-order window as thanos.sh's, for data stamped years back.
start_receive() {
  local n=$1 h name dir
  h=$(node_addr "$n") name=$(receive_name "$n") dir=$(svc_dir "$(receive_name "$n")")
  mkdir -p "$dir"
  start_daemon "$name" "$dir/log" "$BIN" receive --tsdb.path="$dir/data" \
    --remote-write.address="$h:$WRITE_PORT" --grpc-address="$h:$GRPC_PORT" --http-address="$h:$HTTP_PORT" \
    --receive.hashrings-file="$DIR/hashring.json" --receive.local-endpoint="$h:$GRPC_PORT" \
    --receive.capnproto-address="$h:19391" --receive.replication-factor=3 --label='thanos_receive="0"' --label="receive_replica=\"$n\"" \
    --tsdb.retention=0d --tsdb.out-of-order.time-window=100y --log.level=warn
}

# start_query N: node N's Query over every Receive. The replicas hold the
# same samples, so they are merged with the chain deduplication, which
# keeps every sample of each; the default (penalty), made for the gaps of
# Prometheus pairs scraping apart, drops samples around a replica's gap
# (a restarted node's): 560 of 937,000 points missing from a count made
# just after a node's kill, found again by the counts made later.
start_query() {
  local n=$1 h name dir eps=() r
  h=$(node_addr "$n") name=$(query_name "$n") dir=$(svc_dir "$(query_name "$n")")
  for r in "${NODES[@]}"; do eps+=(--endpoint="$r:$GRPC_PORT"); done
  mkdir -p "$dir"
  start_daemon "$name" "$dir/log" "$BIN" query --http-address="$h:$QUERY_PORT" --grpc-address="$h:$QUERY_GRPC_PORT" \
    "${eps[@]}" --query.replica-label=receive_replica --deduplication.func=chain --query.active-query-path="$dir" --log.level=warn --query.timeout=5m
}

# wait_node N: node N's Receive ready and its Query listing every Receive
# as healthy (before, Query answers without the Receives it has not
# checked yet).
wait_node() {
  local n=$1 h deadline=$((SECONDS + 120)) healthy
  h=$(node_addr "$n")
  wait_http "$h:$HTTP_PORT" /-/ready 120 "$(cat "$(svc_dir "$(receive_name "$n")")/pid")" ||
    fail_start "$(receive_name "$n")" "$(svc_dir "$(receive_name "$n")")/log"
  wait_http "$h:$QUERY_PORT" /-/ready 60 "$(cat "$(svc_dir "$(query_name "$n")")/pid")" ||
    fail_start "$(query_name "$n")" "$(svc_dir "$(query_name "$n")")/log"
  while :; do
    healthy=$(http_body "$h:$QUERY_PORT" /api/v1/stores | tr -d ' \n' | grep -o '"lastError":null' | wc -l)
    [ "$healthy" -ge ${#NODES[@]} ] && return 0
    [ $SECONDS -lt $deadline ] || { log "node $n's Query sees $healthy of ${#NODES[@]} Receives"; fail_start "$(query_name "$n")" "$(svc_dir "$(query_name "$n")")/log"; }
    sleep 0.5
  done
}

# up: starts every node process that is not running, then waits for all.
up() {
  local n
  for n in $(seq 1 ${#NODES[@]}); do
    is_running "$(receive_name "$n")" || start_receive "$n"
  done
  for n in $(seq 1 ${#NODES[@]}); do
    is_running "$(query_name "$n")" || start_query "$n"
  done
  for n in $(seq 1 ${#NODES[@]}); do wait_node "$n"; done
}

stop_all() {
  local n
  for n in $(seq 1 ${#NODES[@]}); do
    stop_pid "$(query_name "$n")"
    stop_pid "$(receive_name "$n")"
  done
}

case "${1:-}" in
install)
  bash "$(dirname "$0")/thanos.sh" install
  ;;
start)
  [ -x "$BIN" ] || die "Thanos is not installed: run '$0 install'"
  stop_all >/dev/null 2>&1
  rm -rf "$DIR"
  for n in $(seq 1 ${#NODES[@]}); do rm -rf "$(svc_dir "$(receive_name "$n")")" "$(svc_dir "$(query_name "$n")")"; done
  mkdir -p "$DIR"
  hashring >"$DIR/hashring.json"
  up
  hosts=$(IFS=,; echo "${NODES[*]}")
  ready "${VERSION#v}" "${#NODES[@]} Receives (replication factor 3) and their Queries on ${NODES[*]}" \
    "(tsbench run --target thanos --set HOST=$hosts --set target.query_port=$QUERY_PORT)"
  ;;
resume)
  [ -f "$DIR/hashring.json" ] || die "no ring to resume: run '$0 start'"
  up
  ;;
kill)
  node_addr "${2:-}" >/dev/null
  pidfile=$(svc_dir "$(receive_name "$2")")/pid
  [ -f "$pidfile" ] && ours "$(cat "$pidfile")" || die "node ${2:-}'s Receive is not running"
  kill -KILL "$(cat "$pidfile")"
  log "node $2's Receive killed"
  ;;
partition)
  partition_node "${2:-}"
  ;;
heal)
  heal_node "${2:-}"
  ;;
stop)
  stop_all
  ;;
status)
  for n in $(seq 1 ${#NODES[@]}); do is_running "$(receive_name "$n")" && is_running "$(query_name "$n")" || exit 1; done
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status|kill N|partition N|heal N" >&2; exit 2
  ;;
esac
