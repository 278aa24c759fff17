// Package chdb is the "chdb" target: ClickHouse's current engine (26.9)
// embedded in tsbench's process, as duckdb is, from PyPI's chdb-core wheel
// (scripts/ci/install-chdb.sh unpacks it into the cache). It stores and
// queries as the clickhouse target does — the same tables, statements and
// answers (clickhouse.Open with this package's Transport) — with the data
// in <data-dir>/chdb, its databases being ClickHouse's (DB_NAME), so the engine of today is measured beside the 18.16
// server (2018) that the clickhouse target reaches over HTTP.
//
// chdb-core's library has no C API of its own: besides its Python module it
// exports an ADBC driver (AdbcDriverInit), which engine.c calls. The
// library needs the Python runtime's symbols to load, so the runtime's
// shared library is loaded first; the interpreter is never started. Query
// answers come back as Arrow columns: each query is wrapped in
// formatRow('TabSeparated', *), so that ClickHouse formats its rows as the
// HTTP interface does and the clickhouse target reads them unchanged.
//
// chdb keeps one storage path a process: the first Open fixes it, and
// every client of a run shares the engine, each with a connection of its
// own.
//
// It stands apart from the clickhouse package, which it builds on, because
// it needs cgo: only a cgo build links it (internal/targets/all's chdb.go),
// as duckdb, while the clickhouse target stays in every build.
package chdb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/clickhouse"
	"github.com/tsbench/tsbench/internal/ts"
)

// Version is the chdb-core release scripts/ci/install-chdb.sh installs.
const Version = "26.9.0"

// Driver registers the target.
var Driver = &targets.Driver{
	Name:        "chdb",
	Aliases:     []string{"chDB"},
	Description: "ClickHouse 26.9 in-process (chDB): the clickhouse target's tables and statements on the embedded engine",
	WritePaths:  []string{"tsv"},
	Server:      "embedded",
	// As the clickhouse target: one row per point.
	Caps: targets.Capabilities{Types: ts.DataTypes, Queries: ts.QueryKinds, Sparse: true, GroupByAcross: true,
		Fleet: targets.FleetOnServer},
	Open:     open,
	Language: clickhouse.Driver.Language,
}

func init() { targets.Register(Driver) }

// library is where chdb-core's library and the Python runtime library are.
type library struct{ path, python string }

// findLibrary finds them: TSBENCH_CHDB_LIBRARY (the library's path) and
// TSBENCH_CHDB_LIBPYTHON, else the install script's cache directory, which
// holds the library and, in the file libpython, the runtime's path.
func findLibrary() (library, error) {
	lib := library{path: os.Getenv("TSBENCH_CHDB_LIBRARY"), python: os.Getenv("TSBENCH_CHDB_LIBPYTHON")}
	dir := filepath.Join(CacheDir(), "chdb-core-"+Version)
	if lib.path == "" {
		lib.path = filepath.Join(dir, "chdb", "_chdb.abi3.so")
	}
	if lib.python == "" {
		b, err := os.ReadFile(filepath.Join(dir, "libpython"))
		if err != nil {
			return lib, fmt.Errorf("chdb: the Python runtime library is not named (%w): run scripts/ci/install-chdb.sh, "+
				"or set TSBENCH_CHDB_LIBPYTHON", err)
		}
		lib.python = strings.TrimSpace(string(b))
	}
	if _, err := os.Stat(lib.path); err != nil {
		return lib, fmt.Errorf("chdb: chdb-core %s is not installed (%w): run scripts/ci/install-chdb.sh, "+
			"or set TSBENCH_CHDB_LIBRARY", Version, err)
	}
	return lib, nil
}

// CacheDir is the scripts' cache directory (TSBENCH_CACHE_DIR, else
// ~/.cache/tsbench), where the install script unpacks chdb-core.
func CacheDir() string {
	if d := os.Getenv("TSBENCH_CACHE_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "tsbench")
}

func open(ctx context.Context, o targets.Options) (targets.Target, error) {
	lib, err := findLibrary()
	if err != nil {
		return nil, err
	}
	// DataDir is the run's data directory for this target (<data-dir>/chdb).
	dir := o.DataDir
	if dir == "" {
		dir = "chdb"
	}
	path, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("chdb: %w", err)
	}
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, fmt.Errorf("chdb: %w", err)
	}
	database, err := openEngine(lib, path)
	if err != nil {
		return nil, err
	}
	tr, err := connect(database, path)
	if err != nil {
		return nil, err
	}
	t, err := clickhouse.Open(ctx, tr, o.DatabaseOr("test"))
	if err != nil {
		return nil, err
	}
	return t, nil
}
