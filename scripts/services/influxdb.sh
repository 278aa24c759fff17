#!/usr/bin/env bash
# InfluxDB 1.x, HTTP API on 127.0.0.1, in a throwaway data directory, in one
# of two releases:
#   influxdb.sh        Debian's 1.6.7 (2018), on 8086;
#   influxdb-1.13.sh   the current 1.x release, built from its module with
#                      the Go and Rust toolchains (pinned: VERSION), on 8096:
#                      the release users run today.
# Reporting to the vendor is switched off.
SERVICE=${TSBENCH_INFLUXDB_SERVICE:-influxdb}
. "$(dirname "$0")/lib.sh"

VERSION=v1.13.2
# The pkg-config wrapper that builds Flux's Rust library (libflux) from the
# flux module when the cgo build asks for it.
PKG_CONFIG_VERSION=v0.3.0
CURRENT_BIN="$CACHE_DIR/influxdb-$VERSION/influxd"

if [ "$SERVICE" = influxdb-1.13 ]; then
  PORT=${TSBENCH_INFLUXDB_CURRENT_PORT:-8096}
  BIN=$CURRENT_BIN
  RELEASE=$VERSION
else
  PORT=${TSBENCH_INFLUXDB_PORT:-8086}
  BIN=$(command -v influxd || echo /usr/bin/influxd)
  RELEASE="$(deb_version influxdb) (Debian)"
fi

# install_current: go install of the pinned release into the cache, once.
# Flux's library is Rust, built from crates.io by the pkg-config wrapper;
# the flux module pins a Rust toolchain (rust-toolchain.toml) that cannot
# be downloaded here, so the machine's stable toolchain builds it
# (RUSTUP_TOOLCHAIN). The version is compiled in so that the server reports
# it (/ping's X-Influxdb-Version); a plain go install leaves it "unknown".
# 10 to 15 minutes on 2 cores when nothing is cached (9.5 and 14.3 measured
# on a busy machine).
install_current() {
  [ -x "$CURRENT_BIN" ] && return 0
  command -v go >/dev/null || die "the Go toolchain is needed to build InfluxDB $VERSION"
  [ -d "$HOME/.cargo/bin" ] && PATH="$PATH:$HOME/.cargo/bin"
  command -v cargo >/dev/null || die "the Rust toolchain (cargo) is needed to build InfluxDB $VERSION's Flux library"
  local build="$CACHE_DIR/influxdb-$VERSION.build"
  rm -rf "$build"; mkdir -p "$build/bin"
  log "building InfluxDB $VERSION with $(go version | cut -d' ' -f3) and $(RUSTUP_TOOLCHAIN=stable rustc --version | cut -d' ' -f1-2) (10 to 15 minutes when nothing is cached)"
  GOBIN="$build/bin" go install "github.com/influxdata/pkg-config@$PKG_CONFIG_VERSION" \
    || die "could not build influxdata's pkg-config $PKG_CONFIG_VERSION"
  GOBIN="$build/bin" PKG_CONFIG="$build/bin/pkg-config" RUSTUP_TOOLCHAIN=stable GOTOOLCHAIN=local \
    go install "$GO_LEAN_GCFLAGS" -ldflags "$GO_LEAN_LDFLAGS -X main.version=${VERSION#v}" "github.com/influxdata/influxdb/cmd/influxd@$VERSION" \
    || die "could not build InfluxDB $VERSION"
  mkdir -p "$(dirname "$CURRENT_BIN")"
  mv "$build/bin/influxd" "$CURRENT_BIN"
  rm -rf "$build"
}

# launch: starts influxd on the configuration in $DIR and waits for /ping.
launch() {
  start_daemon "$SERVICE" "$DIR/log" "$BIN" -config "$DIR/influxdb.conf"
  wait_port "$PORT" 60 "$(cat "$DIR/pid")" || fail_start "$SERVICE" "$DIR/log"
  for _ in $(seq 1 50); do
    (exec 3<>/dev/tcp/127.0.0.1/"$PORT" && printf 'GET /ping HTTP/1.0\r\n\r\n' >&3 && grep -q 204 <&3) 2>/dev/null && break
    sleep 0.2
  done
}

case "${1:-}" in
install)
  if [ "$SERVICE" = influxdb-1.13 ]; then install_current; else apt_install influxdb; fi
  ;;
start)
  exit_if_up "$PORT"
  [ -x "$BIN" ] || die "InfluxDB $RELEASE is not installed: run '$0 install'"
  rm -rf "$DIR"; mkdir -p "$DIR"
  # flux-enabled: 1.13 serves Flux beside InfluxQL (/api/v2/query) when
  # asked; 1.6 has no Flux and ignores no unknown key, so it is written for
  # the current release only.
  flux=""
  [ "$SERVICE" = influxdb-1.13 ] && flux="  flux-enabled = true"
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
$flux
[monitor]
  store-enabled = false
[continuous_queries]
  enabled = false
CONF
  launch
  ready "$RELEASE" "http://127.0.0.1:$PORT (tsbench run --target influxdb --set PORT=$PORT)"
  ;;
resume)
  # Starts again on the data a crash or a kill left (fault tests): the WAL
  # is replayed; nothing is re-created.
  exit_if_up "$PORT"
  [ -f "$DIR/influxdb.conf" ] || die "nothing to resume in $DIR: run '$0 start'"
  launch
  log "resumed: http://127.0.0.1:$PORT"
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
