#!/usr/bin/env bash
# Rewrites every golden file in this folder with TSBS's own generators.
# Usage: ./make.sh /path/to/dir/with/tsbs_binaries
#   (the directory must hold tsbs_generate_data and tsbs_generate_queries,
#    built from timescale/tsbs at the commit named in README.md)
# Output files larger than 400 KB are stored gzipped (gzip -n -9, reproducible).
# Refusals by TSBS are recorded in refusals.txt.
set -euo pipefail

BIN=${1:?usage: make.sh /path/to/tsbs/bin}
GEN_DATA="$BIN/tsbs_generate_data"
GEN_QUERIES="$BIN/tsbs_generate_queries"
OUT=$(cd "$(dirname "$0")" && pwd)

SEED=123
SCALE=4
START=2016-01-01T00:00:00Z
END_1H=2016-01-01T01:00:00Z
END_2D=2016-01-03T00:00:00Z
INTERVAL=10s
NQ=4
LIMIT=$((400 * 1024))

# rand.Seed must take effect: keep the pre-Go-1.24 behaviour even if a newer
# toolchain or a changed go.mod would default to randseednop=1.
export GODEBUG=randseednop=0

rm -f "$OUT"/*.timescaledb "$OUT"/*.influx "$OUT"/*.gob "$OUT"/*.gz "$OUT"/*.gob.txt "$OUT"/refusals.txt

shrink() { # gzip the file if it is over the limit
	local f=$1
	if [ "$(stat -c %s "$f")" -gt "$LIMIT" ]; then
		gzip -n -9 -f "$f"
	fi
}

data() { # use-case format
	local uc=$1 fmt=$2
	local f="$OUT/${uc}_seed${SEED}_scale${SCALE}_1h_10s.${fmt}"
	"$GEN_DATA" --use-case="$uc" --seed=$SEED --scale=$SCALE \
		--timestamp-start=$START --timestamp-end=$END_1H \
		--log-interval=$INTERVAL --format="$fmt" --file="$f"
	shrink "$f"
}

data cpu-only timescaledb
data cpu-only influx
data devops timescaledb
data iot timescaledb
data iot influx

# Issue 67's example: cpu-only, seed 321, scale 8, two days. The two-day
# file (30 MB, 1.9 MB gzipped) is not kept: its sha256 and size are, in
# NAME.sha256; its first hour (the file TSBS writes for that hour alone,
# which the two-day file begins with) is kept, to show where a generator
# that drifted first differs.
seed321() {
	local tmp f
	tmp=$(mktemp -d)
	f="$tmp/cpu-only_seed321_scale8_2d_10s.timescaledb"
	"$GEN_DATA" --use-case=cpu-only --seed=321 --scale=8 --timestamp-start=$START --timestamp-end=$END_2D \
		--log-interval=$INTERVAL --format=timescaledb --file="$f"
	printf '%s  %s  %s\n' "$(sha256sum <"$f" | cut -d' ' -f1)" "$(stat -c %s "$f")" "$(basename "$f")" >"$OUT/$(basename "$f").sha256"
	rm -rf "$tmp"
	f="$OUT/cpu-only_seed321_scale8_1h_10s.timescaledb"
	"$GEN_DATA" --use-case=cpu-only --seed=321 --scale=8 --timestamp-start=$START --timestamp-end=$END_1H \
		--log-interval=$INTERVAL --format=timescaledb --file="$f"
	shrink "$f"
}
seed321

queries() { # use-case format query-type [extra flags...]
	# Tries the 1 h window at scale 4 first, then a 2-day window (2016-01-01 to
	# 2016-01-03) when TSBS refuses the 1 h one; query types that need 8 hosts
	# are refused at scale 4 and are then made at scale 8 (same seed), their
	# names say so. Every refusal is recorded with TSBS's own message.
	local uc=$1 fmt=$2 qt=$3
	shift 3
	local try win scale end f err hosts_short=no label=$fmt
	case " $* " in *' --timescale-use-tags=false '*) label=$fmt-notags ;; esac
	for try in 1h/4 2d/4 1h/8 2d/8; do
		win=${try%/*}
		scale=${try#*/}
		if [ "$scale" != "$SCALE" ] && [ "$hosts_short" = no ]; then
			return 0
		fi
		if [ $win = 1h ]; then end=$END_1H; else end=$END_2D; fi
		f="$OUT/${uc}_${label}_${qt}_seed${SEED}_scale${scale}_${win}_q${NQ}.gob"
		if err=$("$GEN_QUERIES" --use-case="$uc" --format="$fmt" --query-type="$qt" \
			--seed=$SEED --scale="$scale" --queries=$NQ \
			--timestamp-start=$START --timestamp-end=$end \
			--file="$f" "$@" 2>&1 >/dev/null); then
			shrink "$f"
			return 0
		fi
		rm -f "$f"
		case $err in *'larger than total hosts'*) hosts_short=yes ;; esac
		# keep TSBS's message (the first line), not the Go stack trace
		printf '%s %s %s window=%s scale=%s: %s\n' "$uc" "$label" "$qt" "$win" "$scale" \
			"$(printf '%s\n' "$err" | head -n 1)" >>"$OUT/refusals.txt"
	done
	return 0
}

DEVOPS_TYPES="single-groupby-1-1-1 single-groupby-1-1-12 single-groupby-1-8-1
single-groupby-5-1-1 single-groupby-5-1-12 single-groupby-5-8-1
cpu-max-all-1 cpu-max-all-8 double-groupby-1 double-groupby-5 double-groupby-all
high-cpu-all high-cpu-1 lastpoint groupby-orderby-limit"

IOT_TYPES="last-loc low-fuel high-load stationary-trucks long-driving-sessions
long-daily-sessions avg-vs-projected-fuel-consumption avg-daily-driving-duration
avg-daily-driving-session avg-load daily-activity breakdown-frequency"

for qt in $DEVOPS_TYPES; do
	queries devops timescaledb "$qt" --timescale-use-time-bucket=false
	queries devops victoriametrics "$qt"
	queries devops influx "$qt"
done
# The same devops queries without TSBS's separate tags table (hostname is a
# column of cpu): files named timescaledb-notags. The iot queries do not
# depend on this flag.
for qt in $DEVOPS_TYPES; do
	queries devops timescaledb "$qt" --timescale-use-time-bucket=false --timescale-use-tags=false
done
for qt in $IOT_TYPES; do
	queries iot timescaledb "$qt" --timescale-use-time-bucket=false
	queries iot influx "$qt"
done

# Plain-text dumps of every query file (FILE.gob -> FILE.gob.txt), made by
# gobdump.go beside this script (standard library only; needs the go tool).
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
(cd "$OUT" && go build -o "$TMP/gobdump" gobdump.go)
for f in "$OUT"/*.gob "$OUT"/*.gob.gz; do
	[ -e "$f" ] || continue
	"$TMP/gobdump" "$f" >"${f%.gz}.txt"
done

# sha256 of what was written, to spot a changed generator at a glance
(cd "$OUT" && sha256sum -- *.timescaledb* *.influx* *.gob* 2>/dev/null | sort -k2) >"$OUT/SHA256SUMS"
