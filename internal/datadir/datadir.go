// Package datadir says where tsbench keeps its files: embedded databases,
// run directories and the default results store.
package datadir

import (
	"os"
	"path/filepath"
)

// Env names the environment variable that overrides the default data
// directory.
const Env = "TSBENCH_DATA_DIR"

// Default is the per-user data directory: $TSBENCH_DATA_DIR, else
// $XDG_DATA_HOME/tsbench, else ~/.local/share/tsbench.
func Default() string {
	if d := os.Getenv(Env); d != "" {
		return d
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "tsbench")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "tsbench")
	}
	return "tsbench-data"
}

// Or is dir when set (a run's data_dir, a --data-dir flag), else Default.
func Or(dir string) string {
	if dir != "" {
		return dir
	}
	return Default()
}
