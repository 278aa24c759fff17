#!/usr/bin/env bash
# ClickHouse from Debian (18.16, the only version the reachable registries
# carry), HTTP on 127.0.0.1:8124 and native TCP on 127.0.0.1:9002, with its
# configuration copied from /etc/clickhouse-server and every path moved into
# a throwaway directory.
SERVICE=clickhouse
. "$(dirname "$0")/lib.sh"

HTTP_PORT=${TSBENCH_CLICKHOUSE_PORT:-8124}

case "${1:-}" in
install)
  apt_install clickhouse-server clickhouse-client
  ;;
start)
  exit_if_up $HTTP_PORT
  [ -x /usr/sbin/clickhouse-server ] || die "ClickHouse is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR/conf" "$DIR/data/tmp" "$DIR/data/user_files" "$DIR/data/format_schemas" "$DIR/log"
  cp /etc/clickhouse-server/users.xml "$DIR/conf/users.xml"
  sed -e "s#<http_port>8123</http_port>#<http_port>$HTTP_PORT</http_port>#" \
      -e "s#<tcp_port>9000</tcp_port>#<tcp_port>9002</tcp_port>#" \
      -e "s#<interserver_http_port>9009</interserver_http_port>#<interserver_http_port>9010</interserver_http_port>#" \
      -e "/<https_port>/d" -e "/<tcp_port_secure>/d" -e "/<listen_host>::1<\/listen_host>/d" \
      -e "s#/var/lib/clickhouse/#$DIR/data/#g" -e "s#/var/log/clickhouse-server/#$DIR/log/#g" \
      /etc/clickhouse-server/config.xml >"$DIR/conf/config.xml"
  chown -R clickhouse:clickhouse "$DIR" 2>/dev/null || true
  start_daemon clickhouse "$DIR/log/stdout" runuser -u clickhouse -- /usr/sbin/clickhouse-server --config-file="$DIR/conf/config.xml"
  wait_port "$HTTP_PORT" 60 "$(cat "$DIR/pid")" || fail_start clickhouse "$DIR/log/clickhouse-server.err.log"
  ready "$(deb_version clickhouse-server)" "http://127.0.0.1:$HTTP_PORT (tsbench run --target clickhouse)"
  ;;
stop)
  # runuser forwards the signal to the server it started.
  stop_pid clickhouse
  pkill -f "clickhouse-server --config-file=$DIR/conf/config.xml" 2>/dev/null || true
  ;;
status)
  is_running clickhouse
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
