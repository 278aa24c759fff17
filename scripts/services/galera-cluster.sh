#!/usr/bin/env bash
# A MariaDB Galera cluster of three nodes: Debian's MariaDB 10.11 with
# Galera 4 (/usr/lib/galera/libgalera_smm.so), each node a full server with
# all the data, any node taking writes (multi-primary), root without a
# password and the database test. Each node has a loopback address of its
# own, so that one node can be cut off from the others and from the
# clients (partition):
#   node N at TSBENCH_GALERA_CLUSTER_HOSTS' Nth address (default 127.0.0.8,
#   127.0.0.9, 127.0.0.10): SQL :3306, Galera replication :4567, IST
#   :4568, SST (rsync) :4444, all bound to that address; its throwaway data
#   directory, option file (my.cnf), socket and log under the services
#   directory (galera-cluster-N). mariadbd runs as the mysql user, so the
#   services directory must be one that user may enter.
# A commit returns once every node of the cluster's Primary Component has
# received the transaction, in one total order, and it passed
# certification (the other nodes apply it soon after: virtually
# synchronous replication): a write acknowledged by any node is on every
# node, so one node lost, stopped or cut off loses no acknowledged row,
# and the two others (a majority) go on taking writes once they have
# dropped it from the view (evs.suspect_timeout, 5 s by default; until
# then every commit waits). A node cut off alone is no Primary Component:
# it refuses work ("WSREP has not yet prepared node for application use")
# until it is back and has caught up. Reads are causal
# (wsrep_sync_wait=1): a read on any node waits until that node has
# applied every write committed before it, so that a count made through
# one node sees the rows acknowledged through the others.
# Node 1 bootstraps the cluster at start only, through a bootstrap-only
# option file (galera-cluster-1/bootstrap.d/bootstrap.cnf: an empty
# wsrep_cluster_address) removed once it is the Primary Component: no
# node's command line bootstraps, so a node killed and started again by its
# own command line (tsbench run --crash) rejoins the running cluster,
# whichever node it is, and never starts a second one. Started so, it
# finds no position in its grastate.dat (a crash leaves seqno -1) and
# takes a copy of all the data from another node (rsync SST: seconds per
# 100 MB here, the donor's writes blocked meanwhile); resume finds the
# position in InnoDB first (mariadbd --wsrep-recover), so that the node
# takes only the commits it missed (IST).
# Actions: install (checks that the server, Galera and rsync are there),
# start, stop, status; resume (starts again whatever node is down, on its
# data, rejoining the cluster; when every node is down, the one with the
# latest commit bootstraps it again first); kill N (SIGKILL to node N's
# mariadbd, a fault given as a command); partition N / heal N (node N's
# address unreachable and back, lib.sh's cut_address: root in a network
# namespace of its own, as scripts/netns-run makes). Not part of 'all'.
SERVICE=galera-cluster
# shellcheck source-path=SCRIPTDIR source=lib.sh disable=SC1091
. "$(dirname "$0")/lib.sh"

read -r -a NODES <<<"${TSBENCH_GALERA_CLUSTER_HOSTS:-127.0.0.8 127.0.0.9 127.0.0.10}"
PORT=3306
GALERA_PORT=4567
IST_PORT=4568
SST_PORT=4444
MARIADBD=/usr/sbin/mariadbd
INSTALL_DB=/usr/bin/mariadb-install-db
CLIENT=/usr/bin/mariadb
PROVIDER=/usr/lib/galera/libgalera_smm.so

node_name() { echo "$SERVICE-$1"; }
node_dir() { svc_dir "$(node_name "$1")"; }

# config N: node N's option file. Its last line takes the bootstrap-only
# file, when there is one.
config() {
  local n=$1 h nd members=() m
  h=$(node_addr "$n") nd=$(node_dir "$n")
  for m in "${NODES[@]}"; do members+=("$m:$GALERA_PORT"); done
  local IFS=,
  cat <<CNF
[mysqld]
user=mysql
datadir=$nd/data
socket=$nd/s.sock
pid-file=$nd/data/mariadbd.pid
bind-address=$h
port=$PORT
skip-name-resolve
local-infile=1
max-connections=300
innodb_buffer_pool_size=128M
default_storage_engine=InnoDB
binlog_format=ROW
innodb_autoinc_lock_mode=2
wsrep_on=ON
wsrep_provider=$PROVIDER
wsrep_provider_options="gmcast.listen_addr=tcp://$h:$GALERA_PORT;ist.recv_addr=$h:$IST_PORT;gcache.size=128M"
wsrep_cluster_name=tsbench-galera
wsrep_cluster_address=gcomm://${members[*]}
wsrep_node_name=node-$n
wsrep_node_address=$h:$GALERA_PORT
wsrep_sst_method=rsync
wsrep_sst_receive_address=$h:$SST_PORT
wsrep_sync_wait=1
!includedir $nd/bootstrap.d
CNF
}

# bootstrap_file N: the option file that makes node N start a new cluster
# (present only while it does).
bootstrap_file() { echo "$(node_dir "$1")/bootstrap.d/bootstrap.cnf"; }

# adopt N: node N's pid file names its running mariadbd. A node restarted
# by another hand (tsbench's --crash re-running its command line) has
# written its pid into its own pid file; the script's follows it.
adopt() {
  local nd pid; nd=$(node_dir "$1")
  is_running "$(node_name "$1")" && return 0
  pid=$(cat "$nd/data/mariadbd.pid" 2>/dev/null) || return 0
  ours "$pid" && echo "$pid" >"$nd/pid"
  return 0
}

# sql N STATEMENT: STATEMENT's rows on node N, tab-separated, through its
# socket (which answers whatever the network does), without waiting for
# the cluster (wsrep_sync_wait=0: a node cut off still says how it is).
sql() {
  "$CLIENT" --no-defaults -S "$(node_dir "$1")/s.sock" -u root -N -B --connect-timeout=2 \
    -e "SET SESSION wsrep_sync_wait=0; $2" 2>/dev/null
}

# wsrep N: node N's wsrep status, one "name value" line per variable
# (fails while the node does not answer).
wsrep() {
  sql "$1" "SHOW GLOBAL STATUS WHERE Variable_name IN
    ('wsrep_cluster_status','wsrep_ready','wsrep_local_state_comment','wsrep_cluster_size')"
}

# start_node N: node N's mariadbd, on the data in its directory.
start_node() {
  local n=$1 nd; nd=$(node_dir "$n")
  start_daemon "$(node_name "$n")" "$nd/err" "$MARIADBD" --defaults-file="$nd/my.cnf"
}

# wait_node N SIZE [SECONDS]: waits until node N is Synced in the Primary
# Component, ready (wsrep_ready ON), of SIZE nodes, and takes connections
# on its address.
wait_node() {
  local n=$1 size=$2 secs=${3:-300} nd h pid st deadline
  nd=$(node_dir "$n") h=$(node_addr "$n") pid=$(cat "$(node_dir "$n")/pid")
  deadline=$((SECONDS + secs))
  while :; do
    st=$(wsrep "$n" | tr '\t\n' '= ') || st="" # no answer yet
    if [[ " $st" == *" wsrep_cluster_status=Primary "* && " $st" == *" wsrep_ready=ON "* &&
      " $st" == *" wsrep_local_state_comment=Synced "* && " $st" == *" wsrep_cluster_size=$size "* ]] &&
      wait_port "$h:$PORT" 1; then
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || fail_start "$(node_name "$n")" "$nd/err"
    if [ $SECONDS -ge $deadline ]; then
      log "node $n not Synced in a cluster of $size after ${secs}s: ${st:-no answer}"
      fail_start "$(node_name "$n")" "$nd/err"
    fi
    sleep 0.5
  done
}

# bootstrap N: starts node N as a new cluster's first node (on its
# data), waits until it is the Primary Component, then removes the
# bootstrap-only file, so that node N started again later joins.
# The file goes whatever happens (a failed start too): left behind, it
# would make the node's next start a second cluster.
bootstrap() {
  BOOT=$(bootstrap_file "$1")
  printf '[mysqld]\nwsrep_cluster_address=gcomm://\n' >"$BOOT"
  trap 'rm -f "$BOOT"' EXIT
  start_node "$1"
  wait_node "$1" 1 120
  rm -f "$BOOT"
  trap - EXIT
}

# position N: the last commit (seqno) in node N's data, -1 when it has
# none. A node shut down cleanly wrote it to grastate.dat; a crash leaves
# -1 there, and what InnoDB holds is found (mariadbd --wsrep-recover) and
# written there as a clean shutdown would have: a node that knows its
# position catches up from a running node's cache (IST, only the commits
# it missed) instead of a copy of all the data (SST), which blocks the
# donor's writes while it lasts (rsync).
position() {
  local nd state seq uuid; nd=$(node_dir "$1") state=$(node_dir "$1")/data/grastate.dat
  seq=$(sed -n 's/^seqno:[[:space:]]*//p' "$state" 2>/dev/null) || seq=-1
  if [ "${seq:--1}" = -1 ] && [ -f "$state" ]; then
    rm -f "$nd/recover.log"
    "$MARIADBD" --defaults-file="$nd/my.cnf" --wsrep-recover --log-error="$nd/recover.log" >/dev/null 2>&1 || true
    read -r uuid seq < <(sed -n 's/.*WSREP: Recovered position: \([0-9a-f-]*\):\(-\{0,1\}[0-9][0-9]*\).*/\1 \2/p' "$nd/recover.log" 2>/dev/null | tail -n 1) || true
    if [ -n "${seq:-}" ] && [ "$seq" != -1 ] && grep -q "^uuid:[[:space:]]*$uuid\$" "$state"; then
      sed -i "s/^seqno:.*/seqno:   $seq/" "$state"
    fi
  fi
  echo "${seq:--1}"
}

# up: starts every node that is down, on its data (its position
# recovered first), one after the other, each waited for until it is
# Synced. When none runs, the cluster is gone: the node with the latest
# commit bootstraps it again (safe_to_bootstrap set in its grastate.dat),
# and the others join it.
up() {
  local n running=0 best=0 best_seq=-2 seq state from
  for n in $(seq 1 ${#NODES[@]}); do
    adopt "$n"
    is_running "$(node_name "$n")" && running=$((running + 1))
  done
  if [ "$running" -eq 0 ]; then
    for n in $(seq 1 ${#NODES[@]}); do
      seq=$(position "$n")
      log "node $n: last commit $seq"
      [ "$seq" -gt "$best_seq" ] && best=$n best_seq=$seq
    done
    log "no node runs: node $best bootstraps the cluster again"
    state=$(node_dir "$best")/data/grastate.dat
    [ ! -f "$state" ] || sed -i 's/^safe_to_bootstrap:.*/safe_to_bootstrap: 1/' "$state"
    bootstrap "$best"
    running=1
  fi
  for n in $(seq 1 ${#NODES[@]}); do
    is_running "$(node_name "$n")" && continue
    seq=$(position "$n")
    start_node "$n"
    running=$((running + 1))
    wait_node "$n" "$running"
    if [ "$seq" = -1 ]; then from="with a copy of all the data (SST)"; else from="from its commit $seq on"; fi
    log "node $n ($(node_addr "$n")) joined $from: $running nodes"
  done
}

# stop_all: the nodes stopped, the last first (node 1, stopped last, is
# the one safe to bootstrap from).
stop_all() {
  local n
  for n in $(seq ${#NODES[@]} -1 1); do
    adopt "$n"
    stop_pid "$(node_name "$n")"
  done
}

case "${1:-}" in
install)
  missing=()
  for f in "$MARIADBD" "$INSTALL_DB" "$CLIENT" "$PROVIDER" /usr/bin/wsrep_sst_rsync; do
    [ -e "$f" ] || missing+=("$f")
  done
  for c in rsync socat; do command -v "$c" >/dev/null || missing+=("$c"); done
  [ ${#missing[@]} -eq 0 ] ||
    die "missing ${missing[*]}: install Debian's mariadb-server, mariadb-client, galera-4, rsync and socat (apt-get install mariadb-server galera-4 rsync socat)"
  id mysql >/dev/null 2>&1 || die "no mysql user: Debian's mariadb-server package makes it"
  log "MariaDB $(deb_version mariadb-server) and Galera $(deb_version galera-4) are installed"
  ;;
start)
  if [ ! -x "$MARIADBD" ] || [ ! -e "$PROVIDER" ]; then die "MariaDB or Galera is not installed: run '$0 install'"; fi
  stop_all >/dev/null 2>&1
  for n in $(seq 1 ${#NODES[@]}); do rm -rf "$(node_dir "$n")"; done
  mkdir -p "$SERVICES_DIR"
  chmod 755 "$SERVICES_DIR"
  t0=$SECONDS
  for n in $(seq 1 ${#NODES[@]}); do
    nd=$(node_dir "$n")
    mkdir -p "$nd/bootstrap.d" "$nd/data"
    chown mysql:mysql "$nd" "$nd/data"
    config "$n" >"$nd/my.cnf"
  done
  # Node 1's data only: the others receive theirs from it (SST) as they
  # join.
  nd=$(node_dir 1)
  "$INSTALL_DB" --no-defaults --user=mysql --datadir="$nd/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$nd/install.log" 2>&1 || fail_start "$(node_name 1)" "$nd/install.log"
  bootstrap 1
  sql 1 "CREATE DATABASE IF NOT EXISTS test" || die "could not create the database test on node 1"
  log "node 1 ($(node_addr 1)) bootstrapped the cluster"
  up
  hosts=$(IFS=,; echo "${NODES[*]}")
  ready "(MariaDB $(deb_version mariadb-server) of Debian, Galera $(deb_version galera-4))" \
    "${#NODES[@]} nodes Synced in $((SECONDS - t0)) s on ${NODES[*]}, mysql://root@HOST:$PORT/test" \
    "(tsbench run --target mysql --set HOST=$hosts --set PORT=$PORT)"
  ;;
resume)
  [ -f "$(node_dir 1)/my.cnf" ] || die "no cluster to resume: run '$0 start'"
  up
  ;;
kill)
  node_addr "${2:-}" >/dev/null
  adopt "$2"
  is_running "$(node_name "$2")" || die "node $2 is not running"
  pid=$(cat "$(node_dir "$2")/pid")
  # Its children too (an SST's script and rsync), as a power cut would.
  mapfile -t children < <(ps -o pid= --ppid "$pid" | tr -d ' ')
  kill -KILL "$pid" "${children[@]}" 2>/dev/null || true
  log "node $2's mariadbd (pid $pid) killed"
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
  rc=0
  for n in $(seq 1 ${#NODES[@]}); do
    adopt "$n"
    if is_running "$(node_name "$n")"; then
      echo "node $n ($(node_addr "$n")): running, $(wsrep "$n" | sed 's/^wsrep_//' | tr '\t\n' '= ' || echo "not answering")"
    else
      echo "node $n ($(node_addr "$n")): down"; rc=1
    fi
  done
  exit $rc
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status|kill N|partition N|heal N" >&2; exit 2
  ;;
esac
