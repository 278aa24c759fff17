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

# fuzz runs one target; its output is in $out.
fuzz() {
  out=$(go test -run '^$' -fuzz "^${2}\$" -fuzztime "$FUZZTIME" -parallel 1 "$1" </dev/null 2>&1)
}

# coordinator_race tells Go's own fuzzing race from a finding: until Go
# 1.27 (go.dev/issue/75804), the coordinator can fail a target with a bare
# "context deadline exceeded" as -fuzztime ends, having found nothing. A
# finding always writes its input to testdata/fuzz/NAME/; this failure
# writes none.
coordinator_race() {
  local pkg=$1 name=$2 marker=$3
  grep -q '^    context deadline exceeded$' <<<"$out" &&
    [ -z "$(find "$pkg/testdata/fuzz/$name" -newer "$marker" -type f 2>/dev/null)" ]
}

failed=0
count=0
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
while IFS=: read -r file name; do
  pkg=./$(dirname "$file")
  count=$((count + 1))
  touch "$marker"
  if fuzz "$pkg" "$name" || { coordinator_race "$pkg" "$name" "$marker" &&
    echo "fuzz again $pkg $name (Go's coordinator failed it at -fuzztime with no input found: go.dev/issue/75804)" &&
    fuzz "$pkg" "$name"; }; then
    echo "fuzz ok   $pkg $name ($(grep -o 'execs: [0-9]*' <<<"$out" | tail -1))"
  else
    echo "fuzz FAIL $pkg $name"; echo "$out" | tail -30
    failed=1
  fi
done < <(git ls-files --cached --others --exclude-standard '*_test.go' | sort -u |
  xargs grep -sHo '^func Fuzz[A-Za-z0-9_]*' | sed 's/:func /:/' | sort)

# The CPU the fuzzing took (its go commands' and fuzzers', which this
# shell waited for): CI runs it on the CPU the tests leave idle, which the
# machine's busy share counts too.
# (times in this shell, not a subshell: a subshell waited for none)
times >"$marker"
echo "fuzzed $count targets for $FUZZTIME each, in $(tail -1 "$marker" | awk '{print $1 " user " $2 " system"}') of CPU"
exit $failed
