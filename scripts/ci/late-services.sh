#!/usr/bin/env bash
# late-services.sh build|wait|list: the servers that take longest to
# compile from source when not cached (Prometheus, Thanos and Mimir: Go,
# minutes of CPU each; InfluxDB 1.13: Go and Rust, 10 to 15 minutes) build
# from CI's first second, beside the checks, the test build and the other
# installs, rather than after them.
#
#   build  (by .ci/run, first): marks each pending
#          ($TSBENCH_SERVICES_DIR/NAME.pending, which a test that needs one
#          waits on: internal/testenv.AwaitService) and builds them in the
#          background, below the checks' priority; a build leaves
#          NAME.built or NAME.failed.
#   wait   (by .ci/run before the servers start): waits for the builds,
#          prints the log of any that failed (exit 1 then) and clears the
#          marks.
#   list   the servers built so.
#
# Not beside the tests: measured, builds running beside them (even at nice
# 15 and 19) broke the tests that hold a rate or find one (find-max on
# PostgreSQL fell 30 % short of a rate it had held; TPC-C at 60
# transactions/s reached 51), since a build's time slice delays the test's
# every wake-up. The Go builds run one after another (a Mimir link alone
# takes 2 GB), beside InfluxDB's, at a lower priority than the checks and
# the test build, which the tests wait on first.
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
list)
  echo "$LATE"
  ;;
wait)
  pid=$(cat "$dir/late-build.pid")
  while kill -0 "$pid" 2>/dev/null; do sleep 2; done
  rc=0
  for name in $LATE; do
    if [ -e "$dir/$name.failed" ]; then
      echo "== building $name failed:"; tail -n 60 "$dir/$name.build.log"; rc=1
    fi
    rm -f "$dir/$name.pending"
  done
  exit $rc
  ;;
*)
  echo "usage: late-services.sh build|wait|list" >&2
  exit 2
  ;;
esac
