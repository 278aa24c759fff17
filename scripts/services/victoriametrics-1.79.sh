#!/usr/bin/env bash
# Debian's VictoriaMetrics 1.79 on 127.0.0.1:8438: see victoriametrics.sh.
TSBENCH_VM_SERVICE=victoriametrics-1.79 exec bash "$(dirname "$0")/victoriametrics.sh" "$@"
