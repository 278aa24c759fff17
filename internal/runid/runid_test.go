package runid

import (
	"regexp"
	"testing"
)

func TestNew(t *testing.T) {
	id := New()
	if !regexp.MustCompile(`^\d{8}-\d{6}-[0-9a-f]{6}$`).MatchString(id) {
		t.Errorf("id %q", id)
	}
	if New() == id && New() == id {
		t.Error("ids repeat")
	}
}
