#!/usr/bin/env bash
# Installs CI's linters at pinned versions, built from their Go modules
# (the Go module proxy, checked against go.sum's database) with this
# machine's Go toolchain, into the cache: staticcheck, and golangci-lint
# with the small set of linters .golangci.yml enables. Called by .ci/run
# while the network is there; harmless when both are already built.
# Prints the directory holding both on stdout (messages go to stderr), so
# a caller can do PATH=$(scripts/ci/install-lint.sh):$PATH.
#
# Built with the toolchain that builds tsbench because a linter reads the
# code with the go/types of the Go it was built with: one built with an
# older Go refuses a module that needs a newer one.
set -euo pipefail

STATICCHECK_VERSION=v0.8.2    # honnef.co/go/tools (staticcheck 2026.2.2)
GOLANGCI_LINT_VERSION=v2.15.0 # github.com/golangci/golangci-lint/v2
SERVICE=lint
# shellcheck source=../services/lib.sh
. "$(dirname "$0")/../services/lib.sh" # log, die, CACHE_DIR

command -v go >/dev/null || die "the Go toolchain is needed to build the linters"
go_version=$(go env GOVERSION)
BIN=$CACHE_DIR/lint/$go_version-staticcheck-$STATICCHECK_VERSION-golangci-lint-$GOLANGCI_LINT_VERSION

if [ -x "$BIN/staticcheck" ] && [ -x "$BIN/golangci-lint" ]; then
  log "staticcheck $STATICCHECK_VERSION and golangci-lint $GOLANGCI_LINT_VERSION already built"
  echo "$BIN"
  exit 0
fi
mkdir -p "$BIN"
log "building staticcheck $STATICCHECK_VERSION and golangci-lint $GOLANGCI_LINT_VERSION with $go_version"
# Outside the checkout, so that tsbench's go.mod and GOFLAGS (CI's build
# tags) do not apply to the linters' own builds.
cd /
GOFLAGS= GOBIN=$BIN go install "honnef.co/go/tools/cmd/staticcheck@$STATICCHECK_VERSION" ||
  die "could not build staticcheck $STATICCHECK_VERSION"
GOFLAGS= GOBIN=$BIN go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION" ||
  die "could not build golangci-lint $GOLANGCI_LINT_VERSION"
log "installed $("$BIN/staticcheck" -version) and $("$BIN/golangci-lint" version 2>&1 | head -1)"
echo "$BIN"
