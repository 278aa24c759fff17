#!/usr/bin/env bash
# MariaDB 10.11 from Debian (MySQL protocol), on 127.0.0.1:3307 (root, no
# password, database test), in a throwaway data directory. With
# TSBENCH_MARIADB_TLS_DIR (a directory holding server.crt and server.key) the
# server takes TLS connections only (require_secure_transport): the TLS
# tests start such a second server.
SERVICE=mariadb
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_MARIADB_PORT:-3307}

case "${1:-}" in
install)
  apt_install mariadb-server
  ;;
start)
  exit_if_up $PORT
  command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || die "MariaDB is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"; chown mysql:mysql "$DIR"
  mariadb-install-db --no-defaults --user=mysql --datadir="$DIR/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$DIR/install.log" 2>&1 || fail_start mariadb "$DIR/install.log"
  tls=() client_tls=()
  if [ -n "${TSBENCH_MARIADB_TLS_DIR:-}" ]; then
    install -o mysql -g mysql -m 600 "$TSBENCH_MARIADB_TLS_DIR/server.key" "$DIR/server.key"
    install -o mysql -g mysql -m 644 "$TSBENCH_MARIADB_TLS_DIR/server.crt" "$DIR/server.crt"
    tls=(--ssl-cert="$DIR/server.crt" --ssl-key="$DIR/server.key" --require-secure-transport=ON)
    client_tls=(--ssl)
  fi
  start_daemon mariadb "$DIR/err" /usr/sbin/mariadbd --no-defaults --user=mysql --datadir="$DIR/data" \
    --bind-address=127.0.0.1 --port="$PORT" --socket="$DIR/s.sock" --pid-file="$DIR/mariadbd.pid" \
    --local-infile=1 --max-connections=600 --innodb-buffer-pool-size=512M --skip-name-resolve "${tls[@]}"
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start mariadb "$DIR/err"
  for _ in $(seq 1 50); do
    mariadb --no-defaults "${client_tls[@]}" -h 127.0.0.1 -P "$PORT" -u root -e "CREATE DATABASE IF NOT EXISTS test" 2>/dev/null && break
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
