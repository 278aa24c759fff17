#!/usr/bin/env bash
# OpenTSDB 2.4.1 from Maven Central (net.opentsdb:opentsdb and its
# dependencies): one TSD with its HTTP API on 127.0.0.1:4242, storing into the
# HBase that scripts/services/hbase.sh runs (start that first; its tables
# tsdb, tsdb-uid, tsdb-tree and tsdb-meta are created here). Metrics are
# created on first write; duplicate points are resolved (last write wins),
# deletes through /api/query are allowed, so a benchmark can reset its data,
# and the write buffer is flushed every 20 ms (see below).
SERVICE=opentsdb
. "$(dirname "$0")/lib.sh"

VERSION=2.4.1
HBASE_VERSION=2.6.1
LIB="$CACHE_DIR/opentsdb-$VERSION/lib"
HBASE_LIB="$CACHE_DIR/hbase-$HBASE_VERSION/lib"
PORT=${TSBENCH_OPENTSDB_PORT:-4242}
ZK_PORT=${TSBENCH_HBASE_PORT:-2181}
HERE=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
install)
  # JAXB left the JDK in 11; OpenTSDB still calls it (UniqueId.uidToString).
  maven_runtime "$LIB" net.opentsdb:opentsdb:$VERSION javax.xml.bind:jaxb-api:2.3.1
  ;;
start)
  exit_if_up "$PORT"
  [ -f "$LIB/.complete" ] || die "OpenTSDB is not installed: run '$0 install'"
  wait_port "$ZK_PORT" 1 || die "HBase does not answer on 127.0.0.1:$ZK_PORT: run scripts/services/hbase.sh start first"
  rm -rf "$DIR"; mkdir -p "$DIR/static" "$DIR/cache" "$DIR/logs"
  # shellcheck disable=SC2086
  java $JDK17_OPENS -cp "$(svc_dir hbase)/conf:$HBASE_LIB/*" "$HERE/hbase/HBaseAdmin.java" \
    create tsdb:t tsdb-uid:id,name tsdb-tree:t tsdb-meta:name >"$DIR/logs/tables.out" 2>&1 ||
    fail_start opentsdb "$DIR/logs/tables.out"
  cat >"$DIR/opentsdb.conf" <<CONF
tsd.network.port = $PORT
tsd.network.bind = 127.0.0.1
tsd.http.staticroot = $DIR/static
tsd.http.cachedir = $DIR/cache
tsd.storage.hbase.zk_quorum = 127.0.0.1:$ZK_PORT
tsd.core.auto_create_metrics = true
tsd.storage.fix_duplicates = true
# Writes are acknowledged once stored (/api/put?sync), so the interval at
# which the TSD's HBase client flushes its write buffer is part of every
# write's latency: 20 ms instead of the default 1 s still batches the HBase
# RPCs of concurrent requests. (tsd.storage.flush_interval no longer does
# this; asynchbase's own key does.)
hbase.rpcs.buffered_flush_interval = 20
tsd.http.query.allow_delete = true
tsd.http.request.enable_chunked = true
tsd.http.request.max_chunk = 16777216
CONF
  logback_warn "$DIR/logback.xml"
  start_daemon opentsdb "$DIR/logs/tsd.out" java -Xms256m -Xmx1g -Dlogback.configurationFile="$DIR/logback.xml" \
    -cp "$LIB/*" net.opentsdb.tools.TSDMain --config="$DIR/opentsdb.conf"
  wait_port "$PORT" 90 "$(cat "$DIR/pid")" || fail_start opentsdb "$DIR/logs/tsd.out"
  ready "$VERSION (HBase $HBASE_VERSION)" "http://127.0.0.1:$PORT (tsbench run --target opentsdb)"
  ;;
stop)
  stop_pid opentsdb
  ;;
status)
  is_running opentsdb
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
