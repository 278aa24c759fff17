#!/usr/bin/env bash
# Apache HBase 2.6.1 standalone, assembled from Maven Central (hbase-server
# and its dependencies): one JVM runs the master, a region server and an
# embedded ZooKeeper, on the local filesystem of a throwaway directory. Every
# address is 127.0.0.1: ZooKeeper on 2181 (what clients are given), master
# RPC on 16000, region server RPC on 16020; the web UIs are off.
#
# HBaseAdmin.java beside this script waits until the master has finished
# initialising; opentsdb.sh uses it to create OpenTSDB's tables.
SERVICE=hbase
. "$(dirname "$0")/lib.sh"

VERSION=2.6.1
LIB="$CACHE_DIR/hbase-$VERSION/lib"
ZK_PORT=${TSBENCH_HBASE_PORT:-2181}
HERE=$(cd "$(dirname "$0")" && pwd)

# The java command with HBase's configuration and jars on the class path.
# shellcheck disable=SC2206
HBASE_JAVA=(java $JDK17_OPENS -Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true
  -Dlog4j.configuration="file:$DIR/conf/log4j.properties" -cp "$DIR/conf:$LIB/*")

case "${1:-}" in
install)
  maven_runtime "$LIB" org.apache.hbase:hbase-server:$VERSION org.apache.hbase:hbase-zookeeper:$VERSION
  ;;
start)
  exit_if_up 16020 "127.0.0.1:$ZK_PORT (ZooKeeper)"
  [ -f "$LIB/.complete" ] || die "HBase is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR/conf" "$DIR/logs" "$DIR/data"
  prop() { echo "  <property><name>$1</name><value>$2</value></property>"; }
  {
    echo "<configuration>"
    prop hbase.cluster.distributed false
    prop hbase.rootdir "file://$DIR/data/hbase"
    prop hbase.tmp.dir "$DIR/data/tmp"
    prop hbase.zookeeper.property.dataDir "$DIR/data/zk"
    prop hbase.zookeeper.quorum 127.0.0.1
    prop hbase.zookeeper.property.clientPort "$ZK_PORT"
    # The local filesystem has no hflush/hsync; HBase refuses it unless told.
    prop hbase.unsafe.stream.capability.enforce false
    prop hbase.master.ipc.address 127.0.0.1
    prop hbase.regionserver.ipc.address 127.0.0.1
    prop hbase.master.hostname 127.0.0.1
    prop hbase.unsafe.regionserver.hostname 127.0.0.1
    prop hbase.master.info.port -1
    prop hbase.regionserver.info.port -1
    echo "</configuration>"
  } >"$DIR/conf/hbase-site.xml"
  cat >"$DIR/conf/log4j.properties" <<'CONF'
log4j.rootLogger=WARN,console
log4j.appender.console=org.apache.log4j.ConsoleAppender
log4j.appender.console.layout=org.apache.log4j.PatternLayout
log4j.appender.console.layout.ConversionPattern=%d %p %c{2}: %m%n
CONF
  start_daemon hbase "$DIR/logs/hbase.out" "${HBASE_JAVA[@]}" -Xms1g -Xmx2g -XX:+UseG1GC \
    org.apache.hadoop.hbase.master.HMaster start
  wait_port 16020 120 "$(cat "$DIR/pid")" || fail_start hbase "$DIR/logs/hbase.out"
  "${HBASE_JAVA[@]}" "$HERE/hbase/HBaseAdmin.java" wait 120 >>"$DIR/logs/admin.out" 2>&1 || fail_start hbase "$DIR/logs/admin.out"
  ready "$VERSION" "ZooKeeper 127.0.0.1:$ZK_PORT (tsbench run --target hbase)"
  ;;
stop)
  stop_pid hbase
  ;;
status)
  is_running hbase
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
