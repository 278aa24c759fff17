#!/usr/bin/env bash
# late-services.sh build|start|report|list: the servers that take longest to
# compile from source when not cached (Prometheus, Thanos and Mimir: Go,
# minutes of CPU each; InfluxDB 1.13: Go and Rust, 10 to 15 minutes) are
# built while the tests that need none of them run, not before every test.
#
#   build  (by .ci/run, with the network): marks each pending
#          ($TSBENCH_SERVICES_DIR/NAME.pending) and builds them in the
#          background below the priority of everything else, so that the tests, which
#          leave much of the CPU idle while they wait on servers, keep it
#          whenever they want it; a build leaves NAME.built or NAME.failed.
#   start  (by .ci/inside, in the loopback-only namespace, in the
#          background): starts each one as its build ends, then removes its
#          pending marker; a test that needs one waits for that
#          (internal/testenv.AwaitService), then finds it running or fails
#          as it would without it.
#   list   the servers built so.
#   report (by .ci/run after the tests): waits for the builds to end and
#          prints the log of any that failed (exit 1 then).
#
# The Go builds run one after another (a Mimir link alone takes 2 GB), beside
# InfluxDB's; Prometheus first, as more tests need it. Both run below the
# tests' priority, the Go ones (nice 15) above InfluxDB's (nice 19): the
# end-to-end tests need them first (e2e_names' and e2e_prometheus_workload's
# targets), InfluxDB 1.13 only later (e2e_releases, internal/targets/influxdb).
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=${TSBENCH_SERVICES_DIR:?the services directory of this run}
LATE_GO="prometheus thanos mimir"
LATE_OTHER="influxdb-1.13"
LATE="$LATE_GO $LATE_OTHER"

build_one() {
  local name=$1 niceness=$2
  if nice -n "$niceness" bash "scripts/services/$name.sh" install >"$dir/$name.build.log" 2>&1; then
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
  (
    (for name in $LATE_GO; do build_one "$name" 15; done) &
    for name in $LATE_OTHER; do build_one "$name" 19 & done
    wait
  ) </dev/null >/dev/null 2>&1 &
  echo $! >"$dir/late-build.pid"
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
