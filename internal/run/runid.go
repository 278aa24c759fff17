package run

// The ids of runs, merges and monitor sessions.

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewID is sortable by time (UTC, to the second) and unique enough across
// machines: three random bytes follow the time.
func NewID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
