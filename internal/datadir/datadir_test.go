package datadir

import (
	"path/filepath"
	"testing"
)

func TestDefault(t *testing.T) {
	t.Setenv(Env, "/data")
	if got := Default(); got != "/data" {
		t.Errorf("from %s: %q", Env, got)
	}
	t.Setenv(Env, "")
	t.Setenv("XDG_DATA_HOME", "/xdg")
	if got := Default(); got != filepath.Join("/xdg", "tsbench") {
		t.Errorf("from XDG_DATA_HOME: %q", got)
	}
	if got := Or("/given"); got != "/given" {
		t.Errorf("Or: %q", got)
	}
	if got := Or(""); got != Default() {
		t.Errorf("Or empty: %q", got)
	}
}
