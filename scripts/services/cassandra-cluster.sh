#!/usr/bin/env bash
# A Cassandra 5.0.9 ring of three nodes, each cassandra.sh's server on a
# loopback address of its own (TSBENCH_CASSANDRA_CLUSTER_HOSTS, default
# 127.0.0.31, 127.0.0.32, 127.0.0.33: CQL :9042, gossip :7000, JMX on
# 127.0.0.1:7201 to 7203), one token each, evenly spread, the first node
# the seed; 1 GB of heap a node. A keyspace made with replication factor 3
# (tsbench's target.replication_factor=3) holds every row on all three;
# written and read at QUORUM (target.consistency=quorum), a write is
# acknowledged once 2 of 3 replicas have it, so the ring promises that one
# node lost, stopped or cut off loses no acknowledged row and leaves every
# answer complete (a read at QUORUM meets a write at QUORUM on a replica).
# Actions: install, start (the seed, then the two others, until each node
# has seen the others up), stop, status; resume (starts again whatever node
# is down, on its data); kill N (SIGKILL to node N, a fault given as a
# command); partition N / heal N (node N's address unreachable and back,
# lib.sh's cut_address: root in a network namespace of its own, as
# scripts/netns-run makes). Not part of 'all': it is started by hand.
SERVICE=cassandra-cluster
. "$(dirname "$0")/lib.sh"

read -r -a NODES <<<"${TSBENCH_CASSANDRA_CLUSTER_HOSTS:-127.0.0.31 127.0.0.32 127.0.0.33}"
CQL_PORT=9042

node_name() { echo "$SERVICE-$1"; }

# token N: node N's token, the Murmur3 range cut into as many equal parts
# as there are nodes.
token() {
  local n=$1 i t=$((-9223372036854775807 - 1)) step=$((9223372036854775807 / ${#NODES[@]} * 2))
  # Step by step from -2^63: every sum stays within bash's 64 bits.
  for ((i = 1; i < n; i++)); do t=$((t + step)); done
  echo "$t"
}

# node N ACTION: cassandra.sh's ACTION for node N.
node() {
  local n=$1 action=$2 h
  h=$(node_addr "$n")
  TSBENCH_CASSANDRA_SERVICE=$(node_name "$n") TSBENCH_CASSANDRA_ADDRESS=$h TSBENCH_CASSANDRA_PORT=$CQL_PORT \
    TSBENCH_CASSANDRA_SEEDS="${NODES[0]}:7000" TSBENCH_CASSANDRA_NUM_TOKENS=1 TSBENCH_CASSANDRA_TOKEN=$(token "$n") \
    TSBENCH_CASSANDRA_JMX_PORT=$((7200 + n)) bash "$(dirname "$0")/cassandra.sh" "$action"
}

# wait_ring: until every node's gossip has seen every other node up since
# its own start (its log's "is now UP" lines).
wait_ring() {
  local n log deadline=$((SECONDS + 180)) up
  for n in $(seq 1 ${#NODES[@]}); do
    log=$(svc_dir "$(node_name "$n")")/logs/stdout.log
    while :; do
      up=$(grep -c "is now UP" "$log" 2>/dev/null || true)
      [ "${up:-0}" -ge $((${#NODES[@]} - 1)) ] && break
      [ $SECONDS -lt $deadline ] || { log "node $n has seen ${up:-0} of $((${#NODES[@]} - 1)) others up"; fail_start "$(node_name "$n")" "$log"; }
      sleep 0.5
    done
  done
}

# up ACTION: node 1 (the seed) first, then the others side by side, each
# by ACTION (start afresh, or resume on its data) unless it runs.
up() {
  local action=$1 n pids=()
  is_running "$(node_name 1)" || node 1 "$action" || exit 1
  for n in $(seq 2 ${#NODES[@]}); do
    is_running "$(node_name "$n")" || { node "$n" "$action" & pids+=($!); }
  done
  for p in "${pids[@]}"; do wait "$p" || exit 1; done
  wait_ring
}

case "${1:-}" in
install)
  bash "$(dirname "$0")/cassandra.sh" install
  ;;
start)
  for n in $(seq 1 ${#NODES[@]}); do node "$n" stop >/dev/null 2>&1; done
  up start
  hosts=$(IFS=,; echo "${NODES[*]}")
  ready 5.0.9 "${#NODES[@]} nodes on ${NODES[*]}" \
    "(tsbench run --target cassandra --set HOST=$hosts --set target.replication_factor=3 --set target.consistency=quorum)"
  ;;
resume)
  up resume
  ;;
kill)
  node_addr "${2:-}" >/dev/null
  pidfile=$(svc_dir "$(node_name "$2")")/pid
  [ -f "$pidfile" ] && ours "$(cat "$pidfile")" || die "node ${2:-} is not running"
  kill -KILL "$(cat "$pidfile")"
  log "node $2 killed"
  ;;
partition)
  partition_node "${2:-}"
  ;;
heal)
  heal_node "${2:-}"
  ;;
stop)
  for n in $(seq 1 ${#NODES[@]}); do node "$n" stop; done
  ;;
status)
  for n in $(seq 1 ${#NODES[@]}); do is_running "$(node_name "$n")" || exit 1; done
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status|kill N|partition N|heal N" >&2; exit 2
  ;;
esac
