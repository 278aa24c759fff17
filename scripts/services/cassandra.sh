#!/usr/bin/env bash
# Apache Cassandra 5.0.9 assembled from Maven Central (cassandra-all and its
# dependencies), a single node with every address on 127.0.0.1, CQL on 9042,
# 1 GB heap, in a throwaway directory. With TSBENCH_CASSANDRA_TLS_DIR (a
# directory holding server.crt and server.key, PEM) the server takes TLS
# connections only on its CQL port (client_encryption_options, not
# optional): the TLS tests start such a second server, on other ports
# (TSBENCH_CASSANDRA_PORT, _STORAGE_PORT, _JMX_PORT). A node of a ring
# (cassandra-cluster.sh) is this server under a name of its own
# (TSBENCH_CASSANDRA_SERVICE) on an address of its own
# (TSBENCH_CASSANDRA_ADDRESS), with the ring's seeds (_SEEDS), one token of
# its own (_TOKEN, with _NUM_TOKENS=1) and a gossip logger whose news the
# ring's script waits for. resume starts a stopped or killed node again on
# its data.
SERVICE=${TSBENCH_CASSANDRA_SERVICE:-cassandra}
. "$(dirname "$0")/lib.sh"

VERSION=5.0.9
LIB="$CACHE_DIR/cassandra-$VERSION/lib"
ADDRESS=${TSBENCH_CASSANDRA_ADDRESS:-127.0.0.1}
CQL_PORT=${TSBENCH_CASSANDRA_PORT:-9042}
STORAGE_PORT=${TSBENCH_CASSANDRA_STORAGE_PORT:-7000}
JMX_PORT=${TSBENCH_CASSANDRA_JMX_PORT:-7199}
SEEDS=${TSBENCH_CASSANDRA_SEEDS:-$ADDRESS:$STORAGE_PORT}
NUM_TOKENS=${TSBENCH_CASSANDRA_NUM_TOKENS:-16}
TOKEN=${TSBENCH_CASSANDRA_TOKEN:-0}

# configure: the node's cassandra.yaml, key store and logging in $DIR/conf.
configure() {
  mkdir -p "$DIR/conf" "$DIR/logs"
  cat >"$DIR/conf/cassandra.yaml" <<YAML
cluster_name: tsbench
num_tokens: $NUM_TOKENS
auto_bootstrap: false
partitioner: org.apache.cassandra.dht.Murmur3Partitioner
commitlog_sync: periodic
commitlog_sync_period: 10000ms
seed_provider:
  - class_name: org.apache.cassandra.locator.SimpleSeedProvider
    parameters:
      - seeds: "$SEEDS"
listen_address: $ADDRESS
rpc_address: $ADDRESS
storage_port: $STORAGE_PORT
native_transport_port: $CQL_PORT
start_native_transport: true
endpoint_snitch: SimpleSnitch
data_file_directories: [$DIR/data]
commitlog_directory: $DIR/commitlog
saved_caches_directory: $DIR/saved_caches
hints_directory: $DIR/hints
cdc_raw_directory: $DIR/cdc_raw
authenticator: AllowAllAuthenticator
authorizer: AllowAllAuthorizer
batch_size_fail_threshold: 50000KiB
batch_size_warn_threshold: 5000KiB
YAML
  if [ -n "${TSBENCH_CASSANDRA_TLS_DIR:-}" ]; then
    # Cassandra reads its key from a key store: one made from the PEM pair,
    # with a throwaway password (the key is the test's, made for this run).
    openssl pkcs12 -export -in "$TSBENCH_CASSANDRA_TLS_DIR/server.crt" -inkey "$TSBENCH_CASSANDRA_TLS_DIR/server.key" \
      -name server -out "$DIR/conf/server.p12" -passout pass:tsbench-test-keystore
    cat >>"$DIR/conf/cassandra.yaml" <<YAML
client_encryption_options:
  enabled: true
  optional: false
  keystore: $DIR/conf/server.p12
  keystore_password: tsbench-test-keystore
  store_type: PKCS12
  require_client_auth: false
YAML
  fi
  logback_warn "$DIR/conf/logback.xml" org.apache.cassandra.gms.Gossiper
}

# launch: starts the node on $DIR's configuration and data and waits for
# its CQL port.
launch() {
  jvm="-Djdk.attach.allowAttachSelf=true -Dio.netty.tryReflectionSetAccessible=true"
  for m in java.base/jdk.internal.misc java.management.rmi/com.sun.jmx.remote.internal.rmi java.rmi/sun.rmi.registry \
    java.rmi/sun.rmi.server java.sql/java.sql java.base/java.lang.ref jdk.unsupported/sun.misc \
    jdk.compiler/com.sun.tools.javac.file jdk.attach/sun.tools.attach; do jvm="$jvm --add-exports $m=ALL-UNNAMED"; done
  for m in java.base/java.lang.module java.base/jdk.internal.loader java.base/jdk.internal.ref java.base/jdk.internal.reflect \
    java.base/jdk.internal.math java.base/jdk.internal.module java.base/jdk.internal.util.jar \
    jdk.management/com.sun.management.internal java.base/sun.nio.ch java.base/java.io java.base/java.lang.reflect \
    jdk.compiler/com.sun.tools.javac java.base/java.lang java.base/java.util; do jvm="$jvm --add-opens $m=ALL-UNNAMED"; done
  # shellcheck disable=SC2086
  start_daemon "$SERVICE" "$DIR/logs/stdout.log" java $jvm -Xms1g -Xmx1g -XX:+UseG1GC -Xss256k \
    -Dcassandra.config="file://$DIR/conf/cassandra.yaml" -Dcassandra.storagedir="$DIR" \
    -Dlogback.configurationFile="$DIR/conf/logback.xml" -Dcassandra.logdir="$DIR/logs" -Dcassandra-foreground=yes \
    -Dcassandra.jmx.local.port=$JMX_PORT -Dcassandra.skip_wait_for_gossip_to_settle=0 -Dcassandra.initial_token=$TOKEN \
    -cp "$LIB/*" org.apache.cassandra.service.CassandraDaemon
  wait_port "$ADDRESS:$CQL_PORT" 180 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/logs/stdout.log"
}

case "${1:-}" in
install)
  maven_runtime "$LIB" org.apache.cassandra:cassandra-all:$VERSION
  ;;
start)
  exit_if_up "$ADDRESS:$CQL_PORT" "$ADDRESS:$CQL_PORT"
  [ -f "$LIB/.complete" ] || die "Cassandra is not installed: run '$0 install'"
  rm -rf "$DIR"
  configure
  launch
  ready "$VERSION" "$ADDRESS:$CQL_PORT (tsbench run --target cassandra)"
  ;;
resume)
  exit_if_up "$ADDRESS:$CQL_PORT" "$ADDRESS:$CQL_PORT"
  [ -f "$DIR/conf/cassandra.yaml" ] || die "nothing to resume in $DIR: run '$0 start'"
  launch
  log "resumed on $ADDRESS:$CQL_PORT"
  ;;
stop)
  stop_pid "$SERVICE"
  ;;
status)
  is_running "$SERVICE"
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
