package run

import (
	"regexp"
	"testing"
)

func TestNewRunID(t *testing.T) {
	id := NewID()
	if !regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`).MatchString(id) {
		t.Errorf("id %q", id)
	}
	// Two more ids, made in the same second as id most of the time: the
	// random part keeps all three apart.
	if a, b := NewID(), NewID(); a == id || b == id || a == b {
		t.Errorf("ids repeat: %s, %s, %s", id, a, b)
	}
}
