#!/usr/bin/env bash
# A PostgreSQL 15 primary (127.0.0.1:5437) with a streaming-replication
# standby (127.0.0.1:5438), in throwaway clusters under
# $TSBENCH_SERVICES_DIR/postgres-pair: the replicated deployment whose
# failover a run measures (docs/deployment.md, "A primary and its standby").
#   TSBENCH_POSTGRES_PAIR_SYNC=on   the standby is synchronous: a commit
#                                   returns once the standby has its WAL
#                                   (synchronous_commit=on, the standby
#                                   named in synchronous_standby_names);
#                                   off (the default): asynchronous.
#   TSBENCH_POSTGRES_PAIR_PORT, TSBENCH_POSTGRES_PAIR_STANDBY_PORT move the
#   ports (the tests start pairs of their own on free ports);
#   TSBENCH_POSTGRES_PAIR_HOST, TSBENCH_POSTGRES_PAIR_STANDBY_HOST the
#   addresses (default 127.0.0.1): loopback addresses of their own
#   (127.0.0.2, 127.0.0.3) let a partition cut one node off.
# Actions: install, start, stop, status; promote (the standby becomes the
# primary, for a failover after the primary's kill); resume (starts again
# whichever node is down, on the data it had); partition primary|standby
# and heal primary|standby (the node's address unreachable and back:
# lib.sh's cut_address). Not part of 'all': the tests start pairs of their
# own.
SERVICE=postgres-pair
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_POSTGRES_PAIR_PORT:-5437}
STANDBY_PORT=${TSBENCH_POSTGRES_PAIR_STANDBY_PORT:-5438}
HOST=${TSBENCH_POSTGRES_PAIR_HOST:-127.0.0.1}
STANDBY_HOST=${TSBENCH_POSTGRES_PAIR_STANDBY_HOST:-127.0.0.1}
SYNC=${TSBENCH_POSTGRES_PAIR_SYNC:-off}
BIN=/usr/lib/postgresql/15/bin
PRIMARY=$DIR/primary
STANDBY=$DIR/standby
# The standby's name in the primary's replication view and in
# synchronous_standby_names.
APP=tsbench_standby

as_pg() { runuser -u postgres -- "$@"; }
# host_of PORT: the address of the node on PORT.
host_of() { [ "$1" = "$STANDBY_PORT" ] && echo "$STANDBY_HOST" || echo "$HOST"; }
psql_at() { as_pg "$BIN/psql" -qAtX -h "$(host_of "$1")" -p "$1" -d postgres -c "$2"; }

# launch NODE PORT PIDFILE: starts the node's cluster and records its PID.
# A postmaster killed a moment ago may still be a zombie, whose PID in the
# old postmaster.pid makes the new one refuse to start: wait (10 s at most)
# until it is gone.
launch() {
  local old
  old=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null || true)
  if [ -n "$old" ]; then
    for _ in $(seq 1 50); do [ -e "/proc/$old" ] || break; sleep 0.2; done
  fi
  as_pg "$BIN/pg_ctl" -D "$1/data" -l "$1/log" -w -t 60 \
    -o "-p $2 -k $1 -c listen_addresses=$(host_of "$2") -c max_connections=300 -c shared_buffers=128MB" start >/dev/null \
    || fail_start "$SERVICE" "$1/log"
  head -n 1 "$1/data/postmaster.pid" >"$3"
}

# up PORT: true when a server answers on PORT.
up() { as_pg "$BIN/pg_isready" -q -h "$(host_of "$1")" -p "$1"; }

# await WHAT SECONDS COMMAND...: runs COMMAND every 0.2 s until it
# succeeds, for at most SECONDS; dies naming WHAT otherwise.
await() {
  local what=$1 limit=$2; shift 2
  for _ in $(seq 1 $((limit * 5))); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "$what: not after ${limit} s"
}

# streaming: true when the standby streams from the primary, and once
# the primary names it synchronous, as its synchronous standby.
streaming() {
  local want="state = 'streaming'"
  [ "$(psql_at "$PORT" "SHOW synchronous_standby_names")" = "$APP" ] && want="$want AND sync_state = 'sync'"
  [ "$(psql_at "$PORT" "SELECT count(*) FROM pg_stat_replication WHERE application_name = '$APP' AND $want")" = 1 ]
}

writable() { [ "$(psql_at "$STANDBY_PORT" "SELECT pg_is_in_recovery()")" = f ]; }

case "${1:-}" in
install)
  apt_install postgresql-15
  ;;
start)
  case "$SYNC" in on | off) ;; *) die "TSBENCH_POSTGRES_PAIR_SYNC=$SYNC: allowed: on, off" ;; esac
  exit_if_up "$HOST:$PORT" "$HOST:$PORT and $STANDBY_HOST:$STANDBY_PORT"
  [ -x "$BIN/postgres" ] || die "PostgreSQL 15 is not installed: run '$0 install'"
  bash "$0" stop >/dev/null 2>&1 || true # a standby left by an earlier start
  rm -rf "$DIR"; mkdir -p "$PRIMARY" "$STANDBY"
  chown postgres:postgres "$DIR" "$PRIMARY" "$STANDBY"; chmod 700 "$PRIMARY" "$STANDBY"
  as_pg "$BIN/initdb" -D "$PRIMARY/data" -U postgres --auth=trust -E UTF8 --no-sync >"$PRIMARY/initdb.log" 2>&1 \
    || fail_start "$SERVICE" "$PRIMARY/initdb.log"
  # Replication connections from the standby, on loopback only.
  echo "host replication postgres 127.0.0.1/32 trust" >>"$PRIMARY/data/pg_hba.conf"
  {
    echo "wal_level = replica"
    echo "max_wal_senders = 4"
    echo "wal_keep_size = 256MB"
  } >>"$PRIMARY/data/postgresql.conf"
  launch "$PRIMARY" "$PORT" "$DIR/pid"
  as_pg "$BIN/createdb" -h "$HOST" -p "$PORT" test
  # The standby: a copy of the primary that follows its WAL (-R writes
  # standby.signal and primary_conninfo, named for the replication view),
  # after an immediate checkpoint (-c fast; a spread one took 90 s here).
  as_pg "$BIN/pg_basebackup" -h "$HOST" -p "$PORT" -U postgres -D "$STANDBY/data" -R -X stream -c fast \
    -d "application_name=$APP" >"$STANDBY/basebackup.log" 2>&1 || fail_start "$SERVICE" "$STANDBY/basebackup.log"
  launch "$STANDBY" "$STANDBY_PORT" "$DIR/standby.pid"
  await "the standby streaming from the primary" 60 streaming
  if [ "$SYNC" = on ]; then
    # Synchronous from now on, the standby streaming: set before, the
    # primary's own createdb would have waited for a standby not yet there.
    # ALTER SYSTEM writes the primary's postgresql.auto.conf alone, which
    # the standby's copy was taken before: promoted, it takes writes alone.
    psql_at "$PORT" "ALTER SYSTEM SET synchronous_standby_names = '$APP'" >/dev/null
    psql_at "$PORT" "SELECT pg_reload_conf()" >/dev/null
    await "the standby synchronous" 30 streaming
  fi
  mode=asynchronous; [ "$SYNC" = on ] && mode=synchronous
  ready "$(deb_version postgresql-15) (Debian), primary $HOST:$PORT, $mode standby $STANDBY_HOST:$STANDBY_PORT" \
    "tsbench run --target postgres --target-url 'postgres://postgres@$HOST:$PORT,$STANDBY_HOST:$STANDBY_PORT/test?target_session_attrs=read-write' --crash 3s --crash-restart 'bash $0 promote'"
  ;;
promote)
  up "$STANDBY_PORT" || die "no standby answers on $STANDBY_HOST:$STANDBY_PORT"
  if ! writable; then
    as_pg "$BIN/pg_ctl" -D "$STANDBY/data" -w -t 60 promote >/dev/null || die "pg_ctl promote failed"
    await "the promoted standby taking writes" 60 writable
  fi
  log "promoted: $STANDBY_HOST:$STANDBY_PORT takes writes"
  ;;
resume)
  # After a crash: a node that is down starts again on its data. A former
  # primary whose standby was promoted comes back as a second primary, not
  # a standby: rejoining it would need pg_rewind, which no test asks for.
  up "$PORT" || launch "$PRIMARY" "$PORT" "$DIR/pid"
  up "$STANDBY_PORT" || launch "$STANDBY" "$STANDBY_PORT" "$DIR/standby.pid"
  log "resumed: $HOST:$PORT and $STANDBY_HOST:$STANDBY_PORT"
  ;;
partition | heal)
  case "${2:-}" in
  primary) addr=$HOST ;;
  standby) addr=$STANDBY_HOST ;;
  *) echo "usage: $0 $1 primary|standby" >&2; exit 2 ;;
  esac
  if [ "$1" = partition ]; then cut_address "$addr"; else heal_address "$addr"; fi
  log "$1: the $2 ($addr)"
  ;;
stop)
  for node in "$STANDBY" "$PRIMARY"; do
    if [ -f "$node/data/postmaster.pid" ]; then
      as_pg "$BIN/pg_ctl" -D "$node/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
  done
  stop_pid "$SERVICE"
  rm -f "$DIR/standby.pid"
  ;;
status)
  is_running "$SERVICE"
  ;;
*)
  echo "usage: $0 install|start|promote|resume|stop|status|partition NODE|heal NODE" >&2; exit 2
  ;;
esac
