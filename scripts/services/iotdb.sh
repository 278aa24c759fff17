#!/usr/bin/env bash
# Apache IoTDB 2.0.1-beta (the version that assembles from Maven Central),
# one ConfigNode and one DataNode, client RPC on 127.0.0.1:6667 (root/root).
#
# IoTDB binds some ports to the wildcard address whatever its settings say,
# so this script only starts it inside a network namespace whose only
# interface is loopback (scripts/netns-run; CI runs everything that way), and
# refuses elsewhere unless TSBENCH_ALLOW_WILDCARD=1.
#
# With TSBENCH_IOTDB_TLS_DIR (a directory holding server.crt and server.key,
# PEM) the client RPC port takes TLS connections only (enable_thrift_ssl):
# the TLS tests start such a second server, with TSBENCH_IOTDB_PORT and
# TSBENCH_IOTDB_INTERNAL_PORT (the first of the six internal ports, 10 apart;
# default 10710) off the plain server's.
SERVICE=iotdb
. "$(dirname "$0")/lib.sh"

VERSION=2.0.1-beta
LIB="$CACHE_DIR/iotdb-$VERSION/lib"
RPC_PORT=${TSBENCH_IOTDB_PORT:-6667}
INTERNAL=${TSBENCH_IOTDB_INTERNAL_PORT:-10710}
# A DataNode whose file system has less than this share of its space free
# sets itself read-only a few seconds after it starts (IoTDB's default is
# 0.05), and from then on refuses every write and schema change with "DataNode
# is not enough" or a null schema region. A CI machine's shared disk has been
# seen at 4.8 % free, so this throwaway server allows down to 1 %, and start
# refuses below that with the reason rather than leaving a server that fails
# every test.
DISK_FREE_MIN=0.01

# free_share DIR: available / total space of DIR's file system, as IoTDB
# computes it.
free_share() { df -Pk "$1" | awk 'NR == 2 { printf "%.4f", $4 / $2 }'; }

loopback_only() {
  [ "$(ip -o link 2>/dev/null | awk -F': ' '{print $2}' | grep -cv '^lo$')" = 0 ]
}

case "${1:-}" in
install)
  command -v unzip >/dev/null || apt_install unzip
  maven_runtime "$LIB" org.apache.iotdb:iotdb-server:$VERSION org.apache.iotdb:iotdb-confignode:$VERSION
  ;;
start)
  exit_if_up $RPC_PORT
  [ -f "$LIB/.complete" ] || die "IoTDB is not installed: run '$0 install'"
  if ! loopback_only && [ "${TSBENCH_ALLOW_WILDCARD:-}" != 1 ]; then
    die "IoTDB listens on every interface; start it inside a loopback-only namespace: scripts/netns-run bash -c '$0 start && ...'"
  fi
  rm -rf "$DIR"; mkdir -p "$DIR/conf" "$DIR/logs" "$DIR/data"
  free=$(free_share "$DIR")
  if awk -v f="$free" -v min=$DISK_FREE_MIN 'BEGIN { exit !(f < min) }'; then
    die "the file system of $DIR has $free of its space free, below $DISK_FREE_MIN: the DataNode would start read-only (disk_space_warning_threshold) and refuse every write; free some space first"
  fi
  unzip -p "$(ls "$LIB"/node-commons-*.jar | head -1)" iotdb-system.properties.template >"$DIR/conf/iotdb-system.properties"
  cat >>"$DIR/conf/iotdb-system.properties" <<CONF

# tsbench: loopback addresses and a throwaway data directory (last value wins)
cn_internal_address=127.0.0.1
cn_internal_port=$INTERNAL
cn_consensus_port=$((INTERNAL + 10))
dn_internal_port=$((INTERNAL + 20))
dn_mpp_data_exchange_port=$((INTERNAL + 30))
dn_schema_region_consensus_port=$((INTERNAL + 40))
dn_data_region_consensus_port=$((INTERNAL + 50))
cn_seed_config_node=127.0.0.1:$INTERNAL
dn_seed_config_node=127.0.0.1:$INTERNAL
dn_rpc_address=127.0.0.1
dn_rpc_port=$RPC_PORT
dn_internal_address=127.0.0.1
cn_system_dir=$DIR/data/cn/system
cn_consensus_dir=$DIR/data/cn/consensus
cn_pipe_receiver_file_dir=$DIR/data/cn/pipe
dn_system_dir=$DIR/data/dn/system
dn_data_dirs=$DIR/data/dn/data
dn_consensus_dir=$DIR/data/dn/consensus
dn_wal_dirs=$DIR/data/dn/wal
dn_tracing_dir=$DIR/data/dn/tracing
dn_sync_dir=$DIR/data/dn/sync
sort_tmp_dir=$DIR/data/dn/tmp
dn_pipe_receiver_file_dirs=$DIR/data/dn/pipe
enable_rest_service=false
disk_space_warning_threshold=$DISK_FREE_MIN
# A test suite makes hundreds of databases, and each costs the DataNode
# memory off the heap: its schema region's Ratis log buffer (16 MiB) and its
# two data regions' WAL buffers (32 MiB each, IoTConsensus). At those sizes
# the DataNode's 1 GiB of direct memory ran out ("Fail to allocate wal node
# ... buffer because out of memory", "Cannot reserve 16777224 bytes of
# direct buffer memory") and every later write or schema change failed. On
# this one-node server the schema regions need no Ratis log (SimpleConsensus
# is IoTDB's choice for one replica), each database has one data region,
# and a WAL buffer is 1 MiB: a thousand databases fit.
schema_region_consensus_protocol_class=org.apache.iotdb.consensus.simple.SimpleConsensus
default_data_region_group_num_per_database=1
wal_buffer_size_in_byte=1048576
CONF
  if [ -n "${TSBENCH_IOTDB_TLS_DIR:-}" ]; then
    # IoTDB reads its key from a Java key store: one made from the PEM pair,
    # with a throwaway password (the key is the test's, made for this run).
    openssl pkcs12 -export -in "$TSBENCH_IOTDB_TLS_DIR/server.crt" -inkey "$TSBENCH_IOTDB_TLS_DIR/server.key" \
      -name server -out "$DIR/conf/server.p12" -passout pass:tsbench-test-keystore
    keytool -importkeystore -noprompt -srckeystore "$DIR/conf/server.p12" -srcstoretype PKCS12 \
      -srcstorepass tsbench-test-keystore -destkeystore "$DIR/conf/server.jks" -deststoretype JKS \
      -deststorepass tsbench-test-keystore >/dev/null 2>&1 || die "keytool could not make the key store"
    printf 'enable_thrift_ssl=true\nkey_store_path=%s\nkey_store_pwd=tsbench-test-keystore\n' "$DIR/conf/server.jks" \
      >>"$DIR/conf/iotdb-system.properties"
  fi
  logback_warn "$DIR/conf/logback.xml"
  opens="--add-opens=java.base/java.util.concurrent=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED"
  common="-Dlogback.configurationFile=$DIR/conf/logback.xml -Dfile.encoding=UTF-8 -Xss512k -Diotdb-foreground=yes"
  # shellcheck disable=SC2086
  start_daemon iotdb-confignode "$DIR/logs/confignode.out" java $opens $common -Xms512m -Xmx512m \
    -DCONFIGNODE_HOME="$DIR" -DCONFIGNODE_DATA_HOME="$DIR" -DTSFILE_HOME="$DIR" -DCONFIGNODE_CONF="$DIR/conf" \
    -DTSFILE_CONF="$DIR/conf" -DCONFIGNODE_LOGS="$DIR/logs" -cp "$LIB/*" org.apache.iotdb.confignode.service.ConfigNode -s
  wait_port "$INTERNAL" 120 "$(cat "$(svc_dir iotdb-confignode)/pid")" || fail_start iotdb "$DIR/logs/confignode.out"
  # shellcheck disable=SC2086
  start_daemon iotdb "$DIR/logs/datanode.out" java $opens $common -Xms1g -Xmx2g -XX:MaxDirectMemorySize=1g \
    -DIOTDB_HOME="$DIR" -DIOTDB_DATA_HOME="$DIR" -DTSFILE_HOME="$DIR" -DIOTDB_CONF="$DIR/conf" \
    -DTSFILE_CONF="$DIR/conf" -DIOTDB_LOG_DIR="$DIR/logs" -cp "$LIB/*" org.apache.iotdb.db.service.DataNode -s
  wait_port "$RPC_PORT" 180 "$(cat "$DIR/pid")" || fail_start iotdb "$DIR/logs/datanode.out"
  ready "$VERSION" "127.0.0.1:$RPC_PORT, root/root (tsbench run --target iotdb, inside the same namespace)"
  ;;
stop)
  stop_pid iotdb
  stop_pid iotdb-confignode
  ;;
status)
  is_running iotdb
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
