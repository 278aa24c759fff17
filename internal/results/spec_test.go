package results

import (
	"path/filepath"
	"testing"
)

func TestSpec(t *testing.T) {
	t.Setenv(Env, "")
	if spec, def, off := Spec("", "/d"); spec != "" || def != filepath.Join("/d", "results.db") || off {
		t.Errorf("default: %q %q %v", spec, def, off)
	}
	t.Setenv(Env, "postgres://u@h/db")
	if spec, _, _ := Spec("", "/d"); spec != "postgres://u@h/db" {
		t.Errorf("from the environment: %q", spec)
	}
	if spec, _, _ := Spec("/x.db", "/d"); spec != "/x.db" {
		t.Errorf("the flag wins: %q", spec)
	}
	if _, _, off := Spec("off", "/d"); !off {
		t.Error("off")
	}
	if loc, off, err := Resolve("/x.db", "/d"); err != nil || off || loc.Path != "/x.db" {
		t.Errorf("Resolve: %v %v %v", loc, off, err)
	}
	if _, _, err := Resolve("bogus://x", "/d"); err == nil {
		t.Error("Resolve took an unknown scheme")
	}
}
