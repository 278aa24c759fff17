#!/usr/bin/env bash
# QuestDB 9.3.4 from Maven Central (one jar), on 127.0.0.1: HTTP and ILP over
# HTTP on 9000, PostgreSQL wire protocol on 8812 (admin/quest), in a
# throwaway data directory. Telemetry is off.
SERVICE=questdb
. "$(dirname "$0")/lib.sh"

VERSION=9.3.4
JAR="$CACHE_DIR/questdb/questdb-$VERSION.jar"

# launch: starts QuestDB on the root directory in $DIR and waits for both ports.
launch() {
  QDB_HTTP_BIND_TO=127.0.0.1:9000 QDB_HTTP_MIN_NET_BIND_TO=127.0.0.1:9003 QDB_PG_NET_BIND_TO=127.0.0.1:8812 \
  QDB_LINE_TCP_NET_BIND_TO=127.0.0.1:9009 QDB_LINE_UDP_ENABLED=false QDB_TELEMETRY_ENABLED=false \
    start_daemon questdb "$DIR/log" java -Xms256m -Xmx1g -XX:+UseParallelGC -p "$JAR" \
      -m io.questdb/io.questdb.ServerMain -d "$DIR/root"
  wait_port 8812 90 "$(cat "$DIR/pid")" && wait_port 9000 30 "$(cat "$DIR/pid")" || fail_start questdb "$DIR/log"
}

case "${1:-}" in
install)
  [ -f "$JAR" ] && exit 0
  command -v mvn >/dev/null || apt_install maven
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  mkdir -p "$(dirname "$JAR")"
  log "fetching org.questdb:questdb:$VERSION from Maven Central"
  mvn -q -B dependency:copy -Dartifact=org.questdb:questdb:$VERSION -DoutputDirectory="$(dirname "$JAR")" \
    || die "could not fetch QuestDB"
  ;;
start)
  exit_if_up 8812 "127.0.0.1:9000"
  [ -f "$JAR" ] || die "QuestDB is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR/root"
  launch
  ready "$VERSION" "ILP http://127.0.0.1:9000, SQL postgres://admin:quest@127.0.0.1:8812/qdb (tsbench run --target questdb)"
  ;;
resume)
  # Starts again on the data a crash or a kill left (fault tests): tables
  # and their WAL are recovered; nothing is re-created.
  exit_if_up 8812 "127.0.0.1:9000"
  [ -d "$DIR/root" ] || die "nothing to resume in $DIR/root: run '$0 start'"
  launch
  log "resumed: ILP http://127.0.0.1:9000, SQL postgres://admin:quest@127.0.0.1:8812/qdb"
  ;;
stop)
  stop_pid questdb
  ;;
status)
  is_running questdb
  ;;
*)
  echo "usage: $0 install|start|resume|stop|status" >&2; exit 2
  ;;
esac
