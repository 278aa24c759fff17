package cli

import (
	"regexp"
	"testing"
)

func TestNewRunID(t *testing.T) {
	id := newRunID()
	if !regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`).MatchString(id) {
		t.Errorf("id %q", id)
	}
	if newRunID() == id && newRunID() == id {
		t.Error("ids repeat")
	}
}
