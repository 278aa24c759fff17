#!/usr/bin/env bash
# Rewrites responses/: the answers TSBS's own runner gives to every devops
# and iot timescaledb query file here, on TSBS's own data, loaded by TSBS's own
# loader into a plain PostgreSQL (no TimescaleDB: no hypertable), printed
# with --print-responses. Run after make.sh, with the same binaries.
# The same for every devops and iot influx query file, on InfluxDB 1.x
# loaded by tsbs_load_influx.
# And every devops victoriametrics query file, on VictoriaMetrics loaded by
# tsbs_load_victoriametrics.
# Usage: ./make-responses.sh /path/to/dir/with/tsbs_binaries [PORT [INFLUX_PORT [VM_PORT]]]
#   (tsbs_generate_data, tsbs_load_timescaledb, tsbs_run_queries_timescaledb,
#    tsbs_load_influx, tsbs_run_queries_influx; a PostgreSQL on
#    127.0.0.1:PORT, default 5433, user postgres, no password, as
#    scripts/services/postgres.sh starts it, and an InfluxDB on
#    127.0.0.1:INFLUX_PORT, default 8086, as scripts/services/influxdb.sh
#    starts it; database tsbs_peer is replaced on both)
# Answers over 400 KB are stored gzipped (gzip -n -9).
set -euo pipefail

BIN=${1:?usage: make-responses.sh /path/to/tsbs/bin [PORT]}
PORT=${2:-5433}
INFLUX_PORT=${3:-8086}
VM_PORT=${4:-8428}
OUT=$(cd "$(dirname "$0")" && pwd)
LIMIT=$((400 * 1024))
export GODEBUG=randseednop=0

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# The queries span 2016-01-01 to 2016-01-03 and name up to 8 hosts.
"$BIN/tsbs_generate_data" --use-case=cpu-only --seed=123 --scale=8 \
	--timestamp-start=2016-01-01T00:00:00Z --timestamp-end=2016-01-03T00:00:00Z \
	--log-interval=10s --format=timescaledb --file="$TMP/data"
"$BIN/tsbs_generate_data" --use-case=cpu-only --seed=123 --scale=8 \
	--timestamp-start=2016-01-01T00:00:00Z --timestamp-end=2016-01-03T00:00:00Z \
	--log-interval=10s --format=influx --file="$TMP/data.influx"
curl -sf -XPOST "http://127.0.0.1:$INFLUX_PORT/query" --data-urlencode "q=DROP DATABASE tsbs_peer" >/dev/null
"$BIN/tsbs_load_influx" --file="$TMP/data.influx" --urls="http://127.0.0.1:$INFLUX_PORT" --db-name=tsbs_peer --workers=1
# iot: four trucks over the same two days, for the iot influx query files.
"$BIN/tsbs_generate_data" --use-case=iot --seed=123 --scale=4 \
	--timestamp-start=2016-01-01T00:00:00Z --timestamp-end=2016-01-03T00:00:00Z \
	--log-interval=10s --format=influx --file="$TMP/iot.influx"
curl -sf -XPOST "http://127.0.0.1:$INFLUX_PORT/query" --data-urlencode "q=DROP DATABASE tsbs_peer_iot" >/dev/null
"$BIN/tsbs_load_influx" --file="$TMP/iot.influx" --urls="http://127.0.0.1:$INFLUX_PORT" --db-name=tsbs_peer_iot --workers=1
"$BIN/tsbs_load_timescaledb" --file="$TMP/data" --host=127.0.0.1 --port="$PORT" --user=postgres \
	--db-name=tsbs_peer --use-hypertable=false --in-table-partition-tag=true --workers=1
# iot on PostgreSQL: the same four trucks in the timescaledb format, in
# database tsbs_peer_iot, with TimescaleDB's time_bucket defined in SQL
# (six of TSBS's iot statements call it). One row per batch: with its
# default batches the loader points some trucks at a tags row with a
# cleared tag or not, by Go's map order (which table of a batch goes
# first), and seven of the twelve answers change from load to load.
"$BIN/tsbs_generate_data" --use-case=iot --seed=123 --scale=4 \
	--timestamp-start=2016-01-01T00:00:00Z --timestamp-end=2016-01-03T00:00:00Z \
	--log-interval=10s --format=timescaledb --file="$TMP/iot"
"$BIN/tsbs_load_timescaledb" --file="$TMP/iot" --host=127.0.0.1 --port="$PORT" --user=postgres \
	--db-name=tsbs_peer_iot --use-hypertable=false --in-table-partition-tag=true --workers=1 --batch-size=1
psql -q -h 127.0.0.1 -p "$PORT" -U postgres -d tsbs_peer_iot -c "CREATE FUNCTION time_bucket(bucket interval, ts timestamptz)
	RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE
	AS \$\$ SELECT date_bin(bucket, ts, TIMESTAMPTZ '2000-01-03 00:00:00+00') \$\$"

# VictoriaMetrics has no databases: TSBS's cpu series are replaced.
VM="http://127.0.0.1:$VM_PORT"
curl -sf "$VM/api/v1/admin/tsdb/delete_series" --data-urlencode 'match[]={__name__=~"cpu_.+"}' >/dev/null
"$BIN/tsbs_load_victoriametrics" --file="$TMP/data.influx" --urls="$VM/write" --workers=1
curl -sf -XPOST "$VM/internal/force_flush" >/dev/null

mkdir -p "$OUT/responses"
rm -f "$OUT"/responses/*
for f in "$OUT"/devops_timescaledb*.gob "$OUT"/iot_timescaledb_*.gob; do
	r="$OUT/responses/$(basename "${f%.gob}").json"
	db=tsbs_peer
	case $f in */iot_*) db=tsbs_peer_iot ;; esac
	# One worker: the answers come in the file's order. The statistics
	# after them are not kept.
	"$BIN/tsbs_run_queries_timescaledb" --file="$f" --hosts=127.0.0.1 --port="$PORT" --user=postgres \
		--db-name=$db --workers=1 --print-responses | sed '/^Run complete after/,$d' >"$r"
	if [ "$(stat -c %s "$r")" -gt "$LIMIT" ]; then
		gzip -n -9 -f "$r"
	fi
done
for f in "$OUT"/devops_influx_*.gob "$OUT"/iot_influx_*.gob; do
	r="$OUT/responses/$(basename "${f%.gob}").json"
	db=tsbs_peer
	case $f in */iot_*) db=tsbs_peer_iot ;; esac
	"$BIN/tsbs_run_queries_influx" --file="$f" --urls="http://127.0.0.1:$INFLUX_PORT" --db-name=$db \
		--workers=1 --print-responses | sed '/^Run complete after/,$d' >"$r"
	if [ "$(stat -c %s "$r")" -gt "$LIMIT" ]; then
		gzip -n -9 -f "$r"
	fi
done
for f in "$OUT"/devops_victoriametrics_*.gob; do
	r="$OUT/responses/$(basename "${f%.gob}").json"
	# This runner prints the answers on stderr; its progress after every
	# 100 queries is not kept.
	"$BIN/tsbs_run_queries_victoriametrics" --file="$f" --urls="$VM" --workers=1 --print-responses 2>&1 |
		sed '/^After [0-9]* queries with/,/^$/d; /^Run complete after/,$d' >"$r"
	if [ "$(stat -c %s "$r")" -gt "$LIMIT" ]; then
		gzip -n -9 -f "$r"
	fi
done
(cd "$OUT/responses" && sha256sum -- *.json* | sort -k2) >"$OUT/responses/SHA256SUMS"
