package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// loadFile reads a testdata file into a fresh Default() with the reader its
// extension calls for.
func loadFile(t *testing.T, name string) (*Config, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c := Default()
	load := LoadProperties
	if strings.HasSuffix(name, ".yaml") {
		load = LoadYAML
	}
	warnings, err := load(c, f, name)
	if err != nil {
		t.Fatalf("loading %s: %v", name, err)
	}
	return c, warnings
}

func loadProps(c *Config, text string) ([]string, error) {
	return LoadProperties(c, strings.NewReader(text), "test.properties")
}

func loadYAMLText(c *Config, text string) ([]string, error) {
	return LoadYAML(c, strings.NewReader(text), "test.yaml")
}

// assertSameConfig compares two configurations field by field. Where a key
// was set (origin) is not part of a configuration's value, and times are
// compared as instants with the same offset, because time.Parse may return
// either time.Local or a fixed zone for the same offset.
func assertSameConfig(t *testing.T, got, want *Config) {
	t.Helper()
	g, w := *got, *want
	g.origin, w.origin = nil, nil
	if !g.StartTime.Equal(w.StartTime) || g.StartTime.Format(timeLayout) != w.StartTime.Format(timeLayout) {
		t.Errorf("StartTime = %s, want %s", g.StartTime.Format(timeLayout), w.StartTime.Format(timeLayout))
	}
	g.StartTime, w.StartTime = time.Time{}, time.Time{}
	if reflect.DeepEqual(g, w) {
		return
	}
	gv, wv := reflect.ValueOf(g), reflect.ValueOf(w)
	for i := 0; i < gv.NumField(); i++ {
		f := gv.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if a, b := gv.Field(i).Interface(), wv.Field(i).Interface(); !reflect.DeepEqual(a, b) {
			t.Errorf("%s = %#v, want %#v", f.Name, a, b)
		}
	}
}

// asError returns the *Error in err, failing the test if there is none.
func asError(t *testing.T, err error) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not a *config.Error", err, err)
	}
	return e
}

func containsLine(lines []string, substr string) bool {
	for _, l := range lines {
		if strings.Contains(l, substr) {
			return true
		}
	}
	return false
}
