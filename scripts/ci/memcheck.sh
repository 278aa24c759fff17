#!/usr/bin/env bash
# Memory-flatness check, CI's short form: runs cmd/tsbench-memcheck on the
# null target, closed loop, for two shapes, comparing RSS at FIRST (30 s)
# with RSS at the end of DURATION (90 s); the full form is 1 min and 10 min,
# MEMCHECK_FIRST=1m MEMCHECK_DURATION=10m. Each check fails when RSS grew by
# more than 10 MB (tsbench-memcheck --max-growth).
#
# Shapes:
#   default  tsbench's own defaults (4 clients, 20 devices x 10 sensors,
#            100-row batches, the default write/query mix): what
#            'tsbench run --target null --duration D' runs, so what users run.
#   1000x1   1,000 clients, 1,000 devices x 10 sensors, 1-row batches, same
#            mix: the most operations, goroutines and per-client recorders.
#
# Both shapes always run; the exit status is 1 when either failed. Needs
# Linux (/proc) and Go; builds tsbench and the checker once, into a
# temporary directory.
set -euo pipefail

# Why the first reading is at 30 s: at 1,000 clients the tool now
# allocates so little that the Go heap's first full collection cycles take
# about 10 s each, and its resident size settles only after two or three
# of them (measured: anonymous RSS 59 MB at 10 s, 81 MB at 30 s, 82 MB at
# 48 s, with the live heap steady at about 24 MB). A reading at 10 s is
# still inside that warm-up, and compared with one at 60 s it measured the
# warm-up, not growth.
FIRST=${MEMCHECK_FIRST:-30s}
DURATION=${MEMCHECK_DURATION:-90s}

cd "$(dirname "$0")/../.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
# MEMCHECK_BIN names binaries built before (CI builds them while it waits
# for its installs): else they are built here.
if [ -n "${MEMCHECK_BIN:-}" ]; then
  cp "$MEMCHECK_BIN/tsbench" "$MEMCHECK_BIN/tsbench-memcheck" "$bin/"
else
  go build -o "$bin/tsbench" ./cmd/tsbench
  go build -o "$bin/tsbench-memcheck" ./cmd/tsbench-memcheck
fi

# The two checks run side by side: each measures its own process's
# resident memory, which sharing the CPU does not change (only how many
# operations it gets through).
check() {
  local name=$1
  shift
  echo "== memcheck $name: --first $FIRST --duration $DURATION $*"
  if ! "$bin/tsbench-memcheck" --tsbench "$bin/tsbench" --first "$FIRST" --duration "$DURATION" "$@"; then
    echo "== memcheck $name: FAILED"
    return 1
  fi
}

check default >"$bin/default.log" 2>&1 &
first=$!
status=0
check 1000x1 --clients 1000 --devices 1000 --batch 1 >"$bin/1000x1.log" 2>&1 || status=1
wait "$first" || status=1
cat "$bin/default.log" "$bin/1000x1.log"
exit $status
