#!/usr/bin/env bash
# PostgreSQL 15 from Debian, on 127.0.0.1:5433 (user postgres, no password,
# database test), in a throwaway cluster under $TSBENCH_SERVICES_DIR/postgres.
# With TSBENCH_POSTGRES_TLS_DIR (a directory holding server.crt and
# server.key) the server takes TLS connections only (ssl=on, hostssl lines
# alone in pg_hba.conf): the TLS tests start such a second server.
SERVICE=postgres
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_POSTGRES_PORT:-5433}
BIN=/usr/lib/postgresql/15/bin
# TMPFS holds the in-memory tablespace, named after this cluster's
# directory rather than its port: a server of another directory on the
# same port (in another network namespace: CI's, beside one started by
# hand) keeps its own.
TMPFS=/dev/shm/tsbench-pg$(printf %s "$DIR" | tr / _)

# launch: starts the server on the cluster in $DIR/data and records its PID.
launch() {
  # Benchmark settings: no fsync wait per commit is NOT set — durability is
  # part of what is measured; only memory and connections are sized.
  local tls=""
  [ -f "$DIR/server.key" ] && tls="-c ssl=on -c ssl_cert_file=$DIR/server.crt -c ssl_key_file=$DIR/server.key"
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 60 \
    -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=512MB $tls" start >/dev/null \
    || fail_start postgres "$DIR/log"
  head -n 1 "$DIR/data/postmaster.pid" >"$DIR/pid"
}

case "${1:-}" in
install)
  apt_install postgresql-15
  ;;
start)
  exit_if_up $PORT
  [ -x "$BIN/postgres" ] || die "PostgreSQL 15 is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"; chown postgres:postgres "$DIR"
  runuser -u postgres -- "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 \
    || fail_start postgres "$DIR/initdb.log"
  if [ -n "${TSBENCH_POSTGRES_TLS_DIR:-}" ]; then
    install -o postgres -g postgres -m 600 "$TSBENCH_POSTGRES_TLS_DIR/server.key" "$DIR/server.key"
    install -o postgres -g postgres -m 644 "$TSBENCH_POSTGRES_TLS_DIR/server.crt" "$DIR/server.crt"
    # TLS connections only: a plaintext one finds no line and is refused.
    printf 'local all all trust\nhostssl all all 127.0.0.1/32 trust\n' >"$DIR/data/pg_hba.conf"
  fi
  launch
  [ -n "${TSBENCH_POSTGRES_TLS_DIR:-}" ] && export PGSSLMODE=require
  runuser -u postgres -- "$BIN/createdb" -h 127.0.0.1 -p "$PORT" test
  # A tablespace in memory (tmpfs) for the mot-tpcc scenario's in-memory
  # analogue: UNLOGGED tables there write neither WAL nor data to disk.
  rm -rf "$TMPFS"; mkdir -p "$TMPFS"; chown postgres:postgres "$TMPFS"; chmod 700 "$TMPFS"
  runuser -u postgres -- "$BIN/psql" -q -h 127.0.0.1 -p "$PORT" -d test \
    -c "CREATE TABLESPACE tsbench_tmpfs LOCATION '$TMPFS'" >/dev/null
  ready "$(deb_version postgresql-15)" "postgres://postgres@127.0.0.1:$PORT/test (tsbench run --target postgres)"
  ;;
resume)
  # Starts again on the data a crash or a kill left (fault tests): crash
  # recovery replays the WAL; nothing is re-created.
  exit_if_up $PORT
  [ -d "$DIR/data" ] || die "no cluster to resume in $DIR/data: run '$0 start'"
  launch
  log "resumed: postgres://postgres@127.0.0.1:$PORT/test"
  ;;
stop)
  if [ -f "$DIR/data/postmaster.pid" ]; then
    runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  stop_pid postgres
  rm -rf "$TMPFS"
  ;;
status)
  is_running postgres
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
