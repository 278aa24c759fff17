#!/usr/bin/env bash
# Installs chdb-core, ClickHouse's engine as a library, for the chdb target
# (internal/targets/chdb): PyPI's wheel, unpacked into the cache once per
# version. No registry reachable here ships a ClickHouse server newer than
# Debian's 18.16 (2018); this wheel carries the current engine (26.9), which
# tsbench runs inside its own process through the library's ADBC driver.
# Called by .ci/run while the network is there. Idempotent. Prints the
# library's path on stdout (messages go to stderr).
#
# Layout under $CACHE_DIR/chdb-core-$VERSION (internal/targets/chdb looks
# there):
#   chdb/_chdb.abi3.so   the engine (555 MB)
#   chdb_core.libs/      the helper library it loads beside it
#   libpython            the path of the Python runtime library whose
#                        symbols the engine's library needs to load (its
#                        interpreter is never started): Debian's
set -euo pipefail

VERSION=26.9.0
# The wheel's hash, pinned from PyPI's index: pip refuses any other file.
SHA256=707e2ec3fe0f7953bac97942eaeb7a1ed1d66b1e56ecef3f0aa2130f61f6e735
SERVICE=chdb
# shellcheck source=../services/lib.sh
. "$(dirname "$0")/../services/lib.sh" # log, die, apt_install, CACHE_DIR
DIR=$CACHE_DIR/chdb-core-$VERSION
LIB=$DIR/chdb/_chdb.abi3.so

# The runtime library of Debian 12's Python (libpython3.11): the wheel is
# built on Python's stable ABI (abi3), so any Python 3.9 or later serves.
apt_install libpython3.11
PY=$(dpkg -L libpython3.11 | grep -E '/libpython3\.11\.so\.1\.0$' | head -n 1)
[ -n "$PY" ] || die "libpython3.11 holds no libpython3.11.so.1.0"

if [ -f "$LIB" ] && [ "$(cat "$DIR/libpython" 2>/dev/null)" = "$PY" ]; then
  log "chdb-core $VERSION already cached"
  echo "$LIB"
  exit 0
fi
command -v python3 >/dev/null || die "python3 (pip) is needed to fetch chdb-core"
tmp="$DIR.tmp"
rm -rf "$tmp"; mkdir -p "$tmp"
echo "chdb-core==$VERSION --hash=sha256:$SHA256" >"$tmp/requirements.txt"
log "fetching chdb-core $VERSION from PyPI (181 MB)"
python3 -m pip download -q --no-deps --only-binary=:all: --require-hashes -r "$tmp/requirements.txt" --dest "$tmp" \
  || die "could not fetch chdb-core $VERSION"
command -v unzip >/dev/null || apt_install unzip
unzip -q "$tmp"/chdb_core-"$VERSION"-*.whl 'chdb/_chdb.abi3.so' 'chdb_core.libs/*' -d "$tmp/unpacked" \
  || die "could not unpack chdb-core $VERSION"
chmod -R a+rX "$tmp/unpacked"
echo "$PY" >"$tmp/unpacked/libpython"
rm -rf "$DIR"
mv "$tmp/unpacked" "$DIR"
rm -rf "$tmp"
log "installed chdb-core $VERSION"
echo "$LIB"
