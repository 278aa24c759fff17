#!/usr/bin/env bash
# Runs every Go fuzz target of the module for FUZZTIME (default 5s) each, on
# its committed corpus (testdata/fuzz/FuzzName/) and the inputs the fuzzer
# makes from it. Targets are found by their `func FuzzX(f *testing.F)` lines,
# so a new one is fuzzed without editing this script (untracked test files
# too, so that it can be tried before it is committed). go test -fuzz takes one
# package and one target at a time. A failing input is written to the
# package's testdata/fuzz/FuzzName/ by go test: commit it with the fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
FUZZTIME=${FUZZTIME:-5s}

failed=0
count=0
while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  count=$((count + 1))
  if out=$(go test -run '^$' -fuzz "^${name}\$" -fuzztime "$FUZZTIME" -parallel 1 "$pkg" </dev/null 2>&1); then
    echo "fuzz ok   $pkg $name ($(grep -o 'execs: [0-9]*' <<<"$out" | tail -1))"
  else
    echo "fuzz FAIL $pkg $name"; echo "$out" | tail -30
    failed=1
  fi
done < <(git ls-files --cached --others --exclude-standard '*_test.go' | sort -u |
  xargs grep -sHo '^func Fuzz[A-Za-z0-9_]*' | sed 's/:func /:/' | sort)

echo "fuzzed $count targets for $FUZZTIME each"
exit $failed
