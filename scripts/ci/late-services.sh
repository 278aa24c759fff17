#!/usr/bin/env bash
# late-services.sh build|start|report|list: the servers that take longest to
# compile from source when not cached (Prometheus, Thanos and Mimir: Go,
# minutes of CPU each; InfluxDB 1.13: Go and Rust, 10 to 15 minutes) build
# from CI's first second in the background, beside the checks and then
# beside the tests, which leave much of the CPU idle while they wait on
# servers; each server starts as its build ends.
#
#   build  (by .ci/run, first, with the network): marks each pending
#          ($TSBENCH_SERVICES_DIR/NAME.pending) and builds them in the
#          background; a build leaves NAME.built or NAME.failed.
#   start  (by .ci/inside, in the loopback-only namespace, in the
#          background): starts each one as its build ends, then removes
#          its pending mark; a test that needs one waits for that
#          (internal/testenv.AwaitService), then finds it running or fails
#          as it would without it.
#   report (by .ci/run after the tests): waits for the builds and prints
#          the log of any that failed (exit 1 then).
#   list   the servers built so.
#
# The builds run on the CPU the tests leave idle (scripts/ci/idle-session.sh
# says how and why). The Go builds run one after another (a Mimir link
# alone takes 2 GB), Prometheus first (more tests need it), beside
# InfluxDB's.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${TSBENCH_SERVICES_DIR:?the services directory of this run}
LATE_GO="prometheus thanos mimir"
LATE_OTHER="influxdb-1.13"
LATE="$LATE_GO $LATE_OTHER"

build_one() {
  local name=$1
  if bash "scripts/services/$name.sh" install >"$dir/$name.build.log" 2>&1; then
    touch "$dir/$name.built"
  else
    touch "$dir/$name.failed"
  fi
}

# start_all starts each server as its build ends, in the order the builds
# end: one process, so that killing it leaves nothing to start a server
# later.
start_all() {
  local todo=" $LATE " name
  while [ -n "${todo// /}" ]; do
    for name in $todo; do
      if [ -e "$dir/$name.built" ]; then
        echo "== $name start (built beside the tests) [$(date -u +%T)]"
        bash "scripts/services/$name.sh" start || echo "== $name start FAILED"
      elif [ -e "$dir/$name.failed" ]; then
        echo "== $name: its build failed; the tests that need it fail (log: $dir/$name.build.log)"
      else
        continue
      fi
      rm -f "$dir/$name.pending"
      todo=${todo/ $name / }
    done
    sleep 2
  done
}

case ${1:-} in
build)
  # Marked before this returns, so no test can miss a pending server.
  for name in $LATE; do touch "$dir/$name.pending"; done
  setsid -w scripts/ci/idle-session.sh bash "$0" build-all </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/late-build.pid"
  ;;
build-all)
  # (by build, in a session of its own, on idle CPU)
  (for name in $LATE_GO; do build_one "$name"; done) &
  for name in $LATE_OTHER; do build_one "$name" & done
  wait
  ;;
start)
  start_all
  ;;
list)
  echo "$LATE"
  ;;
report)
  pid=$(cat "$dir/late-build.pid")
  while kill -0 "$pid" 2>/dev/null; do sleep 2; done
  rc=0
  for name in $LATE; do
    if [ -e "$dir/$name.failed" ]; then
      echo "== building $name failed:"; tail -n 60 "$dir/$name.build.log"; rc=1
    fi
  done
  exit $rc
  ;;
*)
  echo "usage: late-services.sh build|start|report|list" >&2
  exit 2
  ;;
esac
