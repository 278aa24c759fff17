#!/usr/bin/env bash
# KairosDB 1.1.3-1 from Maven Central (org.kairosdb:kairosdb and its
# dependencies, plus the JAXB jars JDK 11 and later no longer carry), HTTP API
# on 127.0.0.1:8080, telnet on 127.0.0.1:4245, in a throwaway directory.
#
# Datastore: KairosDB's own H2 module. KairosDB 1.1.3 reaches Cassandra only
# through Thrift (Hector), which Cassandra removed in 4.0; the releases that
# still speak Thrift (3.11 and older) run only on Java 8, which this machine's
# package sources do not carry. So its figures are those of KairosDB on H2,
# not of the seed study's KairosDB on Cassandra (tsbench targets says so too).
SERVICE=kairosdb
. "$(dirname "$0")/lib.sh"

VERSION=1.1.3-1
LIB="$CACHE_DIR/kairosdb-$VERSION/lib"
PORT=${TSBENCH_KAIROSDB_PORT:-8080}
TELNET_PORT=${TSBENCH_KAIROSDB_TELNET_PORT:-4245}

case "${1:-}" in
install)
  command -v unzip >/dev/null || apt_install unzip
  maven_runtime "$LIB" org.kairosdb:kairosdb:$VERSION javax.xml.bind:jaxb-api:2.3.1 \
    org.glassfish.jaxb:jaxb-runtime:2.3.1 javax.activation:activation:1.1.1
  ;;
start)
  exit_if_up "$PORT"
  [ -f "$LIB/.complete" ] || die "KairosDB is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR/webroot" "$DIR/logs"
  # The packaged defaults, then ours (the last value of a key wins).
  unzip -p "$LIB/kairosdb-$VERSION.jar" kairosdb.properties >"$DIR/kairosdb.properties"
  cat >>"$DIR/kairosdb.properties" <<CONF

# tsbench: loopback addresses, a throwaway H2 database, no self-reporting
kairosdb.jetty.address=127.0.0.1
kairosdb.jetty.port=$PORT
kairosdb.jetty.static_web_root=$DIR/webroot
kairosdb.telnetserver.address=127.0.0.1
kairosdb.telnetserver.port=$TELNET_PORT
kairosdb.service.datastore=org.kairosdb.datastore.h2.H2Module
kairosdb.datastore.h2.database_path=$DIR/h2db
kairosdb.service.reporter=
CONF
  logback_warn "$DIR/logback.xml"
  # shellcheck disable=SC2086
  start_daemon kairosdb "$DIR/logs/kairosdb.out" java $JDK17_OPENS -Xms256m -Xmx2g \
    -Dlogback.configurationFile="$DIR/logback.xml" -cp "$LIB/*" org.kairosdb.core.Main -c run -p "$DIR/kairosdb.properties"
  wait_port "$PORT" 90 "$(cat "$DIR/pid")" || fail_start kairosdb "$DIR/logs/kairosdb.out"
  ready "$VERSION" "http://127.0.0.1:$PORT (tsbench run --target kairosdb)"
  ;;
stop)
  stop_pid kairosdb
  ;;
status)
  is_running kairosdb
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
