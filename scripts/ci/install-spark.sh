#!/usr/bin/env bash
# Installs Apache Spark and the JDBC drivers for the das-events analytics
# phase run through Spark (internal/analytics/spark, scripts/spark/
# das_analytics.py): Spark reads the event store (MariaDB/MySQL or PostgreSQL)
# over JDBC and writes each query's answer back with INSERT OVERWRITE, as
# WSO2 DAS did. Called by .ci/run while the network is there — the tests run
# without one, so nothing may be fetched at run time (no
# spark.jars.packages). Idempotent. Prints the path of spark-submit on stdout
# (messages go to stderr): SUBMIT=$(scripts/ci/install-spark.sh).
#
# Layout under $CACHE_DIR/spark (internal/analytics/spark looks there):
#   bin/spark-submit   Spark's spark-submit with SPARK_HOME and the venv's
#                      Python set (pyspark's own script looks for pyspark
#                      with whichever python3 comes first on PATH)
#   venv/              Spark $SPARK_VERSION (PyPI pyspark) in a venv
#   jdbc/*.jar         the MariaDB and PostgreSQL JDBC drivers
#
# Why PyPI's pyspark rather than Maven Central jars or the Apache tarball:
# the job is a short PySpark script (no compile step, no Scala toolchain),
# the pyspark package is the complete Spark distribution (jars, bin/
# spark-submit, the Python side) behind one pinned, hash-checked download
# from a registry this machine reaches, and the same spark-submit runs the
# job on a cluster by changing only --master. Spark 3.5 is the newest line
# whose support is long-established on JDK 17 (and 8/11); the job uses only
# Spark SQL, so Spark 4 would work too.
set -euo pipefail

SPARK_VERSION=3.5.9
# Hashes pinned from PyPI's index (not fetched beside the files: that would
# prove only that the transfer was whole). pyspark is published as an sdist
# only; py4j is pyspark 3.5's one runtime dependency (pinned exactly by it).
PYSPARK_SHA256=ea27adc39ddac9413b8951e45aa748cbed6c785971b81386efc41938f6243d93
PY4J_VERSION=0.10.9.7
PY4J_SHA256_WHL=85defdfd2b2376eb3abf5ca6474b51ab7e0de341c75a02f46dc9b5976f5a5c1b
PY4J_SHA256_SDIST=0b6e5315bb3ada5cf62ac651d107bb2ebc02def3dee9d9548e3baac644ea8dbb

# JDBC drivers from Maven Central, sha256 pinned (Maven Central's published
# SHA-1s: mariadb 2fd47e0cfae9e8a0f0b629da31a72fa99eeeb06d, postgresql
# 0e7c94ce80cb1dd9875ff44ffe6a40a8aaa3eefd). MariaDB Connector/J 3.x has no
# runtime dependencies outside the JDK (its JNA ones serve Windows only).
MARIADB_VERSION=3.5.11
MARIADB_SHA256=42604178b9e57ec08ee0035079961516f086e455d0141f0b22c6eff29fb2fff4
POSTGRES_VERSION=42.7.14
POSTGRES_SHA256=73914527305a40cce504b0d3d90b23caf565136912d607ae8ae7c5895512332c
MAVEN=https://repo1.maven.org/maven2

SERVICE=spark
# shellcheck source=../services/lib.sh
. "$(dirname "$0")/../services/lib.sh" # log, die, apt_install, CACHE_DIR
HOME_DIR=$CACHE_DIR/spark
VENV=$HOME_DIR/venv
SUBMIT=$HOME_DIR/bin/spark-submit
JDBC=$HOME_DIR/jdbc

verified() { [ -f "$1" ] && echo "$2  $1" | sha256sum --check --status; }

# fetch_jar URL SHA256 DEST: downloads beside DEST and renames only once
# verified, so an interrupted or corrupted download is never trusted.
fetch_jar() {
  local url=$1 sum=$2 dest=$3
  if verified "$dest" "$sum"; then return 0; fi
  command -v curl >/dev/null || apt_install curl ca-certificates
  mkdir -p "$(dirname "$dest")"
  local tmp; tmp=$(mktemp "$dest.XXXXXX")
  log "fetching $url"
  curl -fsSL --retry 3 -o "$tmp" "$url" || { rm -f "$tmp"; die "could not download $url"; }
  if ! verified "$tmp" "$sum"; then
    local got; got=$(sha256sum "$tmp" | cut -d' ' -f1); rm -f "$tmp"
    die "checksum mismatch for $url: got $got, want $sum"
  fi
  chmod 644 "$tmp"
  mv "$tmp" "$dest"
}

# Spark 3.5 runs on JDK 8, 11 and 17; the machine's JDK 17 is what the
# Java-based services install too.
command -v java >/dev/null || apt_install openjdk-17-jre-headless

fetch_jar "$MAVEN/org/mariadb/jdbc/mariadb-java-client/$MARIADB_VERSION/mariadb-java-client-$MARIADB_VERSION.jar" \
  "$MARIADB_SHA256" "$JDBC/mariadb-java-client-$MARIADB_VERSION.jar"
fetch_jar "$MAVEN/org/postgresql/postgresql/$POSTGRES_VERSION/postgresql-$POSTGRES_VERSION.jar" \
  "$POSTGRES_SHA256" "$JDBC/postgresql-$POSTGRES_VERSION.jar"
# Drivers of other versions left by an earlier install would also be loaded.
find "$JDBC" -maxdepth 1 -name '*.jar' ! -name "mariadb-java-client-$MARIADB_VERSION.jar" \
  ! -name "postgresql-$POSTGRES_VERSION.jar" -delete

# The marker names the version, so changing SPARK_VERSION reinstalls.
MARKER=$VENV/.tsbench-pyspark-$SPARK_VERSION
if [ -f "$MARKER" ] && [ -x "$SUBMIT" ]; then
  log "Spark $SPARK_VERSION already installed in $VENV"
  echo "$SUBMIT"
  exit 0
fi

PYTHON=$(command -v python3 || true)
if [ -z "$PYTHON" ] || ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
  apt_install python3 python3-venv
  PYTHON=$(command -v python3)
fi
"$PYTHON" -c 'import sys; sys.exit(not ((3, 8) <= sys.version_info[:2] < (3, 13)))' ||
  die "Spark $SPARK_VERSION needs Python 3.8 to 3.12; $PYTHON is $("$PYTHON" -V 2>&1)"

rm -rf "$VENV"
log "creating a venv in $VENV"
"$PYTHON" -m venv "$VENV" || die "could not create a venv with $PYTHON"
req=$(mktemp)
trap 'rm -f "$req"' EXIT
cat >"$req" <<EOF
pyspark==$SPARK_VERSION --hash=sha256:$PYSPARK_SHA256
py4j==$PY4J_VERSION --hash=sha256:$PY4J_SHA256_WHL --hash=sha256:$PY4J_SHA256_SDIST
EOF
log "installing pyspark $SPARK_VERSION from PyPI (about 320 MB)"
"$VENV/bin/python" -m pip install -q --no-cache-dir --require-hashes -r "$req" >&2 ||
  die "could not install pyspark $SPARK_VERSION"
[ -x "$VENV/bin/spark-submit" ] || die "pyspark installed no $VENV/bin/spark-submit"
SPARK_HOME=$("$VENV/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))') ||
  die "pyspark does not import in $VENV"
mkdir -p "$HOME_DIR/bin"
cat >"$SUBMIT" <<EOF
#!/bin/sh
# Written by scripts/ci/install-spark.sh: Spark $SPARK_VERSION's spark-submit.
export SPARK_HOME='$SPARK_HOME'
export PYSPARK_PYTHON='$VENV/bin/python' PYSPARK_DRIVER_PYTHON='$VENV/bin/python'
exec '$VENV/bin/spark-submit' "\$@"
EOF
chmod 755 "$SUBMIT"
"$SUBMIT" --version >/dev/null 2>&1 || die "$SUBMIT --version failed"
touch "$MARKER"
log "installed Spark $SPARK_VERSION"
echo "$SUBMIT"
