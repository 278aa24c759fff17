#!/usr/bin/env bash
# InfluxDB 1.x from Debian, HTTP API on 127.0.0.1:8086, in a throwaway data
# directory. Reporting to the vendor is switched off.
SERVICE=influxdb
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_INFLUXDB_PORT:-8086}

# launch: starts influxd on the configuration in $DIR and waits for /ping.
launch() {
  start_daemon influxdb "$DIR/log" influxd -config "$DIR/influxdb.conf"
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start influxdb "$DIR/log"
  for _ in $(seq 1 50); do
    (exec 3<>/dev/tcp/127.0.0.1/"$PORT" && printf 'GET /ping HTTP/1.0\r\n\r\n' >&3 && grep -q 204 <&3) 2>/dev/null && break
    sleep 0.2
  done
}

case "${1:-}" in
install)
  apt_install influxdb
  ;;
start)
  exit_if_up $PORT
  command -v influxd >/dev/null || die "InfluxDB is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"
  cat >"$DIR/influxdb.conf" <<CONF
reporting-disabled = true
bind-address = "127.0.0.1:$((PORT + 2))"
[meta]
  dir = "$DIR/meta"
[data]
  dir = "$DIR/data"
  wal-dir = "$DIR/wal"
  query-log-enabled = false
  max-values-per-tag = 0
  max-series-per-database = 0
[http]
  enabled = true
  bind-address = "127.0.0.1:$PORT"
  log-enabled = false
  max-body-size = 0
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
CONF
  launch
  ready "$(deb_version influxdb)" "http://127.0.0.1:$PORT (tsbench run --target influxdb)"
  ;;
resume)
  # Starts again on the data a crash or a kill left (fault tests): the WAL
  # is replayed; nothing is re-created.
  exit_if_up $PORT
  [ -f "$DIR/influxdb.conf" ] || die "nothing to resume in $DIR: run '$0 start'"
  launch
  log "resumed: http://127.0.0.1:$PORT"
  ;;
stop)
  stop_pid influxdb
  ;;
status)
  is_running influxdb
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
