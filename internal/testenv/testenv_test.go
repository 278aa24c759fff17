package testenv

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	mu.Lock()
	saved := skipped
	skipped = map[string]int{"postgres server not reachable; start it with scripts/services/postgres.sh start": 2,
		"no Chromium found": 1}
	mu.Unlock()
	defer func() { mu.Lock(); skipped = saved; mu.Unlock() }()
	got := Summary("internal/x")
	want := "internal/x: 3 tests skipped: no Chromium found; postgres server not reachable; start it with scripts/services/postgres.sh start"
	if got != want {
		t.Fatalf("Summary = %q\nwant      %q", got, want)
	}
	mu.Lock()
	skipped = map[string]int{}
	mu.Unlock()
	if s := Summary("internal/x"); s != "" {
		t.Fatalf("nothing skipped, Summary = %q", s)
	}
	if !strings.Contains(packageName(), "internal/testenv") {
		t.Errorf("packageName = %q", packageName())
	}
}
