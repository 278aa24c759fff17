#!/usr/bin/env bash
# Grafana Mimir, three monolithic nodes (-target=all) in one memberlist
# cluster, the ingesters' ring with a replication factor of 3: a write is
# acknowledged once 2 of the 3 ingesters have it, and a query reads the
# ingesters that hold each series, so one node lost, stopped or cut off
# loses no acknowledged sample and leaves every answer complete. Each node
# has a loopback address of its own (TSBENCH_MIMIR_CLUSTER_HOSTS, default
# 127.0.0.5, 127.0.0.6, 127.0.0.7): HTTP (remote write /api/v1/push, PromQL
# /prometheus) :9029, gRPC :9095, memberlist :7946. The blocks go to one
# filesystem directory the nodes share, as an object store. The rest of
# the configuration is mimir.sh's (tsbench's data: 100 years back, out of
# order, no limits, UTF-8 names, the ingesters asked for every range),
# with every ring in memberlist, each node's instance and memberlist node
# named node-N (the default, the host name, is the same for all three
# here; a random suffix made a restarted node a stranger to the others, its
# ingester Starting for minutes) and its
# query-frontend and queriers using its own query-scheduler (the default
# in monolithic mode is 127.0.0.1).
# Actions: install, start, stop, status; resume (starts again whatever
# node is down, on its data); partition N / heal N (lib.sh's cut_address:
# root in a network namespace of its own). Not part of 'all'.
SERVICE=mimir-cluster
. "$(dirname "$0")/lib.sh"

VERSION=v1.3.1-0.20260423142704-aced80d74930 # mimir.sh's
BIN="$CACHE_DIR/mimir-$VERSION/mimir"
read -r -a NODES <<<"${TSBENCH_MIMIR_CLUSTER_HOSTS:-127.0.0.5 127.0.0.6 127.0.0.7}"
PORT=9029
GRPC_PORT=9095
GOSSIP_PORT=7946

node_name() { echo "$SERVICE-$1"; }

# ring H N: a ring's settings for node N at H.
ring() { printf '%s\n' "instance_addr: $1" "instance_id: node-$2" "kvstore: {store: memberlist}"; }

# config N: node N's configuration.
config() {
  local n=$1 h nd members=() m
  h=$(node_addr "$n") nd=$(svc_dir "$(node_name "$n")")
  for m in "${NODES[@]}"; do members+=("$m:$GOSSIP_PORT"); done
  local IFS=,
  cat <<YAML
target: all
multitenancy_enabled: false
usage_stats: {enabled: false}
activity_tracker: {filepath: $nd/metrics-activity.log}
server:
  http_listen_address: $h
  http_listen_port: $PORT
  grpc_listen_address: $h
  grpc_listen_port: $GRPC_PORT
  log_level: warn
memberlist:
  node_name: node-$n
  randomize_node_name: false
  bind_addr: [$h]
  bind_port: $GOSSIP_PORT
  advertise_addr: $h
  advertise_port: $GOSSIP_PORT
  join_members: [${members[*]}]
common:
  storage:
    backend: filesystem
blocks_storage:
  filesystem: {dir: $DIR/blocks}
  tsdb: {dir: $nd/tsdb}
  bucket_store: {sync_dir: $nd/tsdb-sync}
ruler_storage:
  filesystem: {dir: $DIR/rules}
alertmanager_storage:
  filesystem: {dir: $DIR/alertmanager}
alertmanager: {data_dir: $nd/data-alertmanager}
compactor:
  data_dir: $nd/compactor
  sharding_ring: {$(ring "$h" "$n" | paste -sd, -)}
distributor:
  ring: {$(ring "$h" "$n" | paste -sd, -)}
ingester:
  ring: {$(ring "$h" "$n" | paste -sd, -), replication_factor: 3}
store_gateway:
  sharding_ring: {$(ring "$h" "$n" | paste -sd, -), replication_factor: 3}
ruler:
  rule_path: $nd/data-ruler
  ring: {$(ring "$h" "$n" | paste -sd, -)}
querier:
  ring: {$(ring "$h" "$n" | paste -sd, -)}
frontend_worker: {scheduler_address: "$h:$GRPC_PORT"}
frontend: {address: $h, scheduler_address: "$h:$GRPC_PORT"}
query_scheduler:
  ring: {$(ring "$h" "$n" | paste -sd, -)}
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

start_node() {
  local n=$1 nd
  nd=$(svc_dir "$(node_name "$n")")
  mkdir -p "$nd"
  config "$n" >"$nd/mimir.yaml"
  start_daemon "$(node_name "$n")" "$nd/log" "$BIN" -config.file="$nd/mimir.yaml"
}

# up: starts every node that is not running, then waits until each is
# ready (its ingester ACTIVE in the ring, which takes 15 s at least).
up() {
  local n
  for n in $(seq 1 ${#NODES[@]}); do
    is_running "$(node_name "$n")" || start_node "$n"
  done
  for n in $(seq 1 ${#NODES[@]}); do
    wait_http "$(node_addr "$n"):$PORT" /ready 180 "$(cat "$(svc_dir "$(node_name "$n")")/pid")" ||
      fail_start "$(node_name "$n")" "$(svc_dir "$(node_name "$n")")/log"
  done
}

stop_all() {
  local n
  for n in $(seq 1 ${#NODES[@]}); do stop_pid "$(node_name "$n")"; done
}

case "${1:-}" in
install)
  bash "$(dirname "$0")/mimir.sh" install
  ;;
start)
  [ -x "$BIN" ] || die "Mimir is not installed: run '$0 install'"
  stop_all >/dev/null 2>&1
  rm -rf "$DIR"
  for n in $(seq 1 ${#NODES[@]}); do rm -rf "$(svc_dir "$(node_name "$n")")"; done
  mkdir -p "$DIR"
  up
  hosts=$(IFS=,; echo "${NODES[*]}")
  ready "$VERSION" "${#NODES[@]} nodes (replication factor 3) on ${NODES[*]}" \
    "(tsbench run --target mimir --set HOST=$hosts --set PORT=$PORT)"
  ;;
resume)
  up
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
  for n in $(seq 1 ${#NODES[@]}); do is_running "$(node_name "$n")" || exit 1; done
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status|partition N|heal N" >&2; exit 2
  ;;
esac
