#!/usr/bin/env bash
# Runs its command on the CPU the tests leave idle: in a session of its own
# (started by setsid) whose autogroup has nice 19, under SCHED_IDLE within
# it, or at nice 19 where the policy cannot be set.
#
# The group is what matters: Linux's scheduler shares the CPU between
# sessions' autogroups, and every database server, and each PostgreSQL
# backend, is a session of its own, so SCHED_IDLE or nice alone would rank
# the command only against the tests' client, and the servers would share
# the CPU with it as with an equal. Measured on a 2-core machine
# (2026-11-26): builds at nice 15 and 19 beside the tests broke the ones
# that hold or find a rate (find-max on PostgreSQL fell 30 % short of a
# rate it had held; TPC-C at 60 transactions/s reached 51), and so did
# SCHED_IDLE alone in CI's session; in a group of nice 19 under SCHED_IDLE
# they broke none.
#
# Usage: setsid -w scripts/ci/idle-session.sh COMMAND [ARG...]
set -euo pipefail
echo 19 >/proc/self/autogroup 2>/dev/null || true
if chrt -i 0 true 2>/dev/null; then
  exec chrt -i 0 "$@"
fi
exec nice -n 19 "$@"
