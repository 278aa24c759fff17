#!/usr/bin/env bash
# VictoriaMetrics (single node) from Debian, HTTP on 127.0.0.1:8428, in a
# throwaway data directory. Retention is 100 years: the default (1 month)
# silently drops benchmark data with old timestamps. The result cache is off
# so that repeated queries measure the engine, not the cache.
SERVICE=victoriametrics
. "$(dirname "$0")/lib.sh"

PORT=${TSBENCH_VICTORIAMETRICS_PORT:-8428}
DIR=$(svc_dir victoriametrics)

case "${1:-}" in
install)
  apt_install victoria-metrics
  ;;
start)
  if already_up victoriametrics $PORT; then log "already running on 127.0.0.1:$PORT"; exit 0; fi
  command -v victoria-metrics >/dev/null || die "VictoriaMetrics is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"
  start_daemon victoriametrics "$DIR/log" victoria-metrics -storageDataPath="$DIR/data" \
    -httpListenAddr=127.0.0.1:"$PORT" -retentionPeriod=100y -search.disableCache \
    -search.latencyOffset=0s -dedup.minScrapeInterval=1ms
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start victoriametrics "$DIR/log"
  log "ready: http://127.0.0.1:$PORT (tsbench run --target victoriametrics)"
  ;;
stop)
  stop_pid victoriametrics
  ;;
status)
  is_running victoriametrics
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
