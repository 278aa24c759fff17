package targettest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"testing"
)

// FreshName is a database, role or user name no other test uses; prefix
// may need quoting, so that the quoting is tested too.
func FreshName(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// OpenConcurrently runs open from clients goroutines at once, as a run's
// clients open a missing database together, and fails the test for each
// client that failed.
func OpenConcurrently(ctx context.Context, t *testing.T, clients int, open func(context.Context) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, clients)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = open(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("client %d: %v", i, err)
		}
	}
}
