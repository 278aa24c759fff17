package testenv

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A test needing a server still being built waits until its marker goes,
// and one needing a server with no marker does not wait at all.
func TestAwaitService(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TSBENCH_SERVICES_DIR", dir)
	marker := filepath.Join(dir, "thanos.pending")
	if err := os.WriteFile(marker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(3 * time.Second)
		os.Remove(marker)
	}()
	start := time.Now()
	AwaitService(t, "thanos")
	if waited := time.Since(start); waited < 3*time.Second {
		t.Fatalf("returned after %s, before the marker went", waited)
	}
	start = time.Now()
	AwaitService(t, "mimir")
	if waited := time.Since(start); waited > time.Second {
		t.Fatalf("waited %s for a server with no marker", waited)
	}
}
