#!/usr/bin/env bash
# InfluxDB 1.13.2, built from its module, on 127.0.0.1:8096: see influxdb.sh.
TSBENCH_INFLUXDB_SERVICE=influxdb-1.13 exec bash "$(dirname "$0")/influxdb.sh" "$@"
