# Shared helpers for scripts/services/NAME.sh. Each service script supports:
#   install   fetch the server from its registry (Debian, Maven Central, npm)
#   start     start it on 127.0.0.1 with a throwaway data directory; wait until
#             it answers; print how to connect
#   resume    (postgres, influxdb, questdb, victoriametrics) start it again
#             on the data a crash left, without wiping it: the fault tests'
#             and tsbench run --crash's restart
#   stop      stop it by PID
#   status    exit 0 when it runs
# State lives in $TSBENCH_SERVICES_DIR/NAME (default /tmp/tsbench-services/NAME).
set -euo pipefail

SERVICES_DIR=${TSBENCH_SERVICES_DIR:-/tmp/tsbench-services}
CACHE_DIR=${TSBENCH_CACHE_DIR:-$HOME/.cache/tsbench}

svc_dir() { echo "$SERVICES_DIR/$1"; }

# DIR is the state directory of the service the sourcing script runs.
DIR=$(svc_dir "$SERVICE")

log() { echo "[$SERVICE] $*" >&2; }

# ready VERSION WHERE: says that the server is up, which version it runs and
# where to reach it, so that a CI log shows what each test measured.
ready() { local v=$1; shift; log "ready: $SERVICE $v, $*"; }

# deb_version PKG: the installed Debian package's version.
deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "(version unknown)"; }
die() { echo "[$SERVICE] error: $*" >&2; exit 1; }

# apt_install PKG...: installs the Debian packages that are missing (an
# already installed server is not upgraded).
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  if [ ! -f /tmp/.tsbench-apt-updated ]; then
    apt-get -o DPkg::Lock::Timeout=600 update -qq && touch /tmp/.tsbench-apt-updated
  fi
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The probes below take PORT, on 127.0.0.1, or HOST:PORT (a cluster's
# nodes on loopback addresses of their own: 127.0.0.2, 127.0.0.3 ...).
probe_host() { [[ $1 == *:* ]] && echo "${1%:*}" || echo 127.0.0.1; }
probe_port() { echo "${1##*:}"; }

# wait_port PORT SECONDS [PID]: waits until 127.0.0.1:PORT accepts
# connections; fails early when PID dies.
wait_port() {
  local host port secs=$2 pid=${3:-}
  host=$(probe_host "$1") port=$(probe_port "$1")
  local deadline=$((SECONDS + secs))
  while [ $SECONDS -lt $deadline ]; do
    if (exec 3<>/dev/tcp/"$host"/"$port") 2>/dev/null; then return 0; fi
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.2
  done
  return 1
}

# http_ok PORT PATH: true when GET http://127.0.0.1:PORT/PATH answers 200
# (bash's /dev/tcp: no HTTP client is needed).
http_ok() {
  local host port; host=$(probe_host "$1") port=$(probe_port "$1")
  (exec 3<>/dev/tcp/"$host"/"$port" &&
    printf 'GET %s HTTP/1.0\r\nHost: %s:%s\r\n\r\n' "$2" "$host" "$port" >&3 &&
    IFS= read -r -t 10 line <&3 && [[ $line == "HTTP/1."?" 200"* ]]) 2>/dev/null
}

# http_body PORT PATH: prints the body of GET http://127.0.0.1:PORT/PATH.
http_body() {
  local host port; host=$(probe_host "$1") port=$(probe_port "$1")
  (exec 3<>/dev/tcp/"$host"/"$port" &&
    printf 'GET %s HTTP/1.0\r\nHost: %s:%s\r\n\r\n' "$2" "$host" "$port" >&3 &&
    sed '1,/^\r\{0,1\}$/d' <&3) 2>/dev/null
}

# wait_http PORT PATH SECONDS [PID]: waits until GET PATH on 127.0.0.1:PORT
# answers 200 (a server that listens before it is ready: Prometheus
# replaying its WAL, Mimir joining its rings); fails early when PID dies.
wait_http() {
  local port=$1 path=$2 secs=$3 pid=${4:-}
  local deadline=$((SECONDS + secs))
  while [ $SECONDS -lt $deadline ]; do
    http_ok "$port" "$path" && return 0
    if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 1; fi
    sleep 0.5
  done
  return 1
}

# A partition on this machine: a node listening on a loopback address of
# its own (127.0.0.2 ...) cut off by the network namespace's routing rules.
# The local table (pref 0, which routes every loopback address) moves after
# two rules that make the address unreachable: nothing sent to it arrives
# (a new connection fails at once, no route to host; one already open
# stalls, its packets going nowhere, until it times out or is healed), and
# nothing it answers from it leaves. Connections the node opens itself
# start from 127.0.0.1 and still go: a node that cannot be reached sends
# only what nobody asked of it. Only a namespace of the cluster's own
# (nothing but loopback) may take such rules, and only root.
own_namespace() {
  [ "$(ip -o link show | cut -d: -f2 | tr -d " ")" = lo ] ||
    die "a partition changes the network namespace's routing rules: run the cluster and tsbench in one of their own (scripts/netns-run)"
  [ "$(id -u)" = 0 ] || die "a partition needs root (in the namespace) to change its routing rules"
}

# node_addr N: a cluster's node N (1-based) of the NODES array the script
# sets, or a usage error (exit 2).
node_addr() {
  [[ ${1:-} =~ ^[0-9]+$ ]] && [ "$1" -ge 1 ] && [ "$1" -le ${#NODES[@]} ] ||
    { echo "node '${1:-}': a node is 1 to ${#NODES[@]}" >&2; exit 2; }
  echo "${NODES[$(($1 - 1))]}"
}

# partition_node N / heal_node N: node N's address cut off, and back.
partition_node() { local h; h=$(node_addr "$1"); cut_address "$h"; log "node $1 ($h) cut off"; }
heal_node() { local h; h=$(node_addr "$1"); heal_address "$h"; log "node $1 ($h) reachable again"; }

# cut_address ADDR / heal_address ADDR: the partition of ADDR, and its end.
cut_address() {
  [[ $1 == 127.* && $1 != 127.0.0.1 ]] || die "cut off $1: only a loopback address of a node's own (127.0.0.2 ...), not 127.0.0.1, which every client uses"
  own_namespace
  if ip rule show pref 0 | grep -q 'lookup local'; then
    ip rule add pref 32000 lookup local
    ip rule del pref 0
  fi
  heal_address "$1"
  ip rule add pref 100 to "$1/32" unreachable
  ip rule add pref 101 from "$1/32" unreachable
}

heal_address() {
  own_namespace
  ip rule del pref 100 to "$1/32" unreachable 2>/dev/null || true
  ip rule del pref 101 from "$1/32" unreachable 2>/dev/null || true
}

# The servers built here from Go source are run, never debugged: their
# builds leave DWARF out, compiling (GO_LEAN_GCFLAGS) and linking (the
# -s -w of GO_LEAN_LDFLAGS). Measured on Prometheus 3.16 from an empty
# build cache: 192 and 203 CPU seconds against 203 and 230, and a binary
# of 52 MB against 75. Stack traces keep their files and lines.
GO_LEAN_GCFLAGS=-gcflags=all=-dwarf=false
GO_LEAN_LDFLAGS="-s -w"

# go_build_cached BIN MODULE@VERSION PKG [GO BUILD ARGS...]: builds PKG of
# a Go module at a pinned version into BIN, once: the module's own source
# (with its go.mod, go.sum and replace directives, which go install
# module@version refuses) is copied from the module cache and built as the
# main module, then removed. GOTOOLCHAIN, when set, picks the Go release
# the module asks for (fetched through the module proxy).
go_build_cached() {
  local bin=$1 modver=$2 pkg=$3; shift 3
  [ -x "$bin" ] && return 0
  command -v go >/dev/null || die "the Go toolchain is needed to build $modver"
  local src; src=$(GOFLAGS=-mod=mod go mod download -json "$modver" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$src" ] && [ -d "$src" ] || die "could not fetch $modver from the module proxy"
  local work; work=$(mktemp -d "$(dirname "$bin").build.XXXXXX")
  cp -r "$src/." "$work" && chmod -R u+w "$work"
  log "building $modver ($pkg) with $(go version | cut -d' ' -f3)${GOTOOLCHAIN:+, toolchain $GOTOOLCHAIN}"
  mkdir -p "$(dirname "$bin")"
  if ! (cd "$work" && GOFLAGS=-mod=mod go build -trimpath -o "$bin.tmp" "$@" "$pkg"); then
    rm -rf "$work" "$bin.tmp"
    die "could not build $modver"
  fi
  rm -rf "$work"
  mv "$bin.tmp" "$bin"
}

# start_daemon NAME LOGFILE CMD...: starts CMD in the background, records its PID.
start_daemon() {
  local name=$1 logfile=$2; shift 2
  local dir; dir=$(svc_dir "$name")
  mkdir -p "$dir"
  # TSBENCH_JVM_OPTS: options for every Java server, after "java". CI
  # gives -XX:TieredStopAtLevel=1 (.ci/inside): the servers there answer
  # tests, not benchmarks, and the JIT's second tier spent minutes of
  # CPU that the tests beside it wanted. Unset, the servers run as users
  # run them.
  if [ "$1" = java ] && [ -n "${TSBENCH_JVM_OPTS:-}" ]; then
    # shellcheck disable=SC2086
    set -- java $TSBENCH_JVM_OPTS "${@:2}"
  fi
  nohup "$@" >"$logfile" 2>&1 &
  echo $! >"$dir/pid"
}

# ours PID: true when PID is alive and is one of ours: every server these
# scripts start names the services directory on its command line, so a pid
# file left behind and a PID since reused by another program is never
# mistaken for a server (or killed).
ours() {
  kill -0 "$1" 2>/dev/null && tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "$SERVICES_DIR"
}

# stop_pid NAME: stops the process recorded for NAME (TERM, then KILL).
stop_pid() {
  local dir; dir=$(svc_dir "$1")
  [ -f "$dir/pid" ] || { log "not running"; return 0; }
  local pid; pid=$(cat "$dir/pid")
  if ours "$pid"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
  log "stopped"
}

# already_up NAME PORT: true when NAME runs and answers on PORT. A recorded
# process that does not answer (a stale pid file, or a server started in
# another network namespace) is stopped, so that start begins afresh.
already_up() {
  is_running "$1" || return 1
  wait_port "$2" 2 && return 0
  log "a recorded $1 process does not answer on 127.0.0.1:$2; restarting"
  stop_pid "$1"
  return 1
}

# exit_if_up PORT [WHERE]: ends the script, with success, when $SERVICE
# already runs and answers on PORT (already_up): start and resume leave a
# running server alone. WHERE (default 127.0.0.1:PORT) is what the log names.
exit_if_up() {
  already_up "$SERVICE" "$1" || return 0
  log "already running on ${2:-127.0.0.1:$1}"
  exit 0
}

is_running() {
  local dir; dir=$(svc_dir "$1")
  [ -f "$dir/pid" ] && ours "$(cat "$dir/pid")"
}

# fail_start NAME LOGFILE: prints the end of the log and fails.
fail_start() {
  log "did not start; last lines of $2:"
  tail -n 30 "$2" >&2 || true
  exit 1
}

# maven_runtime LIBDIR GROUP:ARTIFACT:VERSION...: copies the artifacts and
# their runtime dependencies from Maven Central into LIBDIR, once (a
# .complete marker says the copy finished).
maven_runtime() {
  local lib=$1; shift
  [ -f "$lib/.complete" ] && return 0
  command -v mvn >/dev/null || apt_install maven
  command -v java >/dev/null || apt_install openjdk-17-jre-headless
  mkdir -p "$lib" "$lib.pom"
  {
    echo '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>'
    echo "<groupId>tsbench</groupId><artifactId>$SERVICE-runtime</artifactId><version>1</version><dependencies>"
    local g a v
    for coord in "$@"; do
      IFS=: read -r g a v <<<"$coord"
      echo "<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"
    done
    echo '</dependencies></project>'
  } >"$lib.pom/pom.xml"
  log "fetching $* and their dependencies from Maven Central"
  mvn -q -B -f "$lib.pom/pom.xml" dependency:copy-dependencies -DoutputDirectory="$lib" \
    -DincludeScope=runtime || die "could not fetch $*"
  touch "$lib/.complete"
}

# Older servers reach into the JDK by reflection; JDK 17 allows it only when
# the packages are opened to them.
JDK17_OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED
 --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED
 --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED
 --add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/sun.nio.ch=ALL-UNNAMED
 --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED --add-exports=java.base/sun.net.dns=ALL-UNNAMED
 --add-exports=java.base/sun.net.util=ALL-UNNAMED"

# logback_warn FILE [LOGGER...]: a logback configuration that prints
# warnings and errors to the console (the daemon's log file), and the
# information of each LOGGER named (a class whose news a script waits for).
logback_warn() {
  local file=$1 l; shift
  {
    echo '<configuration>'
    echo '  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender"><encoder><pattern>%d %-5level %logger{30} - %msg%n</pattern></encoder></appender>'
    for l in "$@"; do echo "  <logger name=\"$l\" level=\"INFO\"/>"; done
    echo '  <root level="WARN"><appender-ref ref="OUT"/></root>'
    echo '</configuration>'
  } >"$file"
}
