#!/usr/bin/env bash
# MariaDB 10.11 from Debian (MySQL protocol), on 127.0.0.1:3307 (root, no
# password, database test), in a throwaway data directory.
SERVICE=mariadb
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_MARIADB_PORT:-3307}
DIR=$(svc_dir mariadb)

case "${1:-}" in
install)
  apt_install mariadb-server
  ;;
start)
  if already_up mariadb $PORT; then log "already running on 127.0.0.1:$PORT"; exit 0; fi
  command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || die "MariaDB is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"; chown mysql:mysql "$DIR"
  mariadb-install-db --no-defaults --user=mysql --datadir="$DIR/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$DIR/install.log" 2>&1 || fail_start mariadb "$DIR/install.log"
  start_daemon mariadb "$DIR/err" /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$DIR/data" \
    --bind-address=127.0.0.1 --port="$PORT" --socket="$DIR/s.sock" --pid-file="$DIR/mariadbd.pid" \
    --local-infile=1 --max-connections=600 --innodb-buffer-pool-size=512M --skip-name-resolve
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start mariadb "$DIR/err"
  for _ in $(seq 1 50); do
    mariadb --no-defaults -h 127.0.0.1 -P "$PORT" -u root -e "CREATE DATABASE IF NOT EXISTS test" 2>/dev/null && break
    sleep 0.2
  done
  ready "$(deb_version mariadb-server)" "mysql://root@127.0.0.1:$PORT/test (tsbench run --target mysql)"
  ;;
stop)
  stop_pid mariadb
  ;;
status)
  is_running mariadb
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
