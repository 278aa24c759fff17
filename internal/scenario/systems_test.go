package scenario

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestPublishedBy(t *testing.T) {
	sc, err := Lookup("iotdb-crrc")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target   string
		wantRate float64
		wantOwn  bool
	}{
		{"iotdb", 5_125_600.86, true},
		{"kairosdb", 224_819.01, true},
		{"sqlite", 5_125_600.86, false}, // no figure of its own: the study's main one
	}
	for _, tt := range tests {
		f, own := sc.PublishedBy(0, "", tt.target)
		if f.Rate != tt.wantRate || own != tt.wantOwn {
			t.Errorf("PublishedBy(write, %s) = %v, %v; want %v, %v", tt.target, f.Rate, own, tt.wantRate, tt.wantOwn)
		}
	}
	das, _ := Lookup("das-events")
	wiki, _ := Lookup("das-wikipedia")
	if f, own := wiki.PublishedBy(0, "", "hbase"); f.Rate != 8993.381291 || !own {
		t.Errorf("das-wikipedia hbase = %v, %v", f.Rate, own)
	}
	if f, own := wiki.PublishedBy(0, "", "mysql"); f.Rate != 4438 || !own {
		t.Errorf("das-wikipedia mysql = %v, %v", f.Rate, own)
	}
	if f, own := das.PublishedBy(0, "", "hbase"); f.Rate != 96_230.01591 || !own {
		t.Errorf("das-events hbase = %v, %v", f.Rate, own)
	}
	if got := strings.Join(sc.Systems(), ","); got != "iotdb,kairosdb" {
		t.Errorf("Systems() = %s", got)
	}
}

func TestCompareSystems(t *testing.T) {
	sc, _ := Lookup("iotdb-crrc")
	rowsOf := func(target string, rate float64) SystemRows {
		measured := [][]Measurement{{{Seconds: 10, Points: int64(rate * 10)}}, nil}
		return SystemRows{Target: target, Rows: sc.Table("", target, 0.01, measured, 2)}
	}
	cs := CompareSystems([]SystemRows{rowsOf("iotdb", 900_000), rowsOf("kairosdb", 60_000), rowsOf("sqlite", 30_000)})
	if len(cs) != 1 || cs[0].Phase != "write" {
		t.Fatalf("phases = %+v", cs)
	}
	c := cs[0]
	if c.Systems[1].Published != 224_819.01 || c.Systems[2].Published != 0 {
		t.Errorf("published = %v, %v (sqlite has no figure of its own)", c.Systems[1].Published, c.Systems[2].Published)
	}
	if r := c.Ratios[0]; math.Abs(r.Published-5_125_600.86/224_819.01) > 1e-9 || math.Abs(r.Measured-15) > 1e-9 {
		t.Errorf("iotdb/kairosdb ratio = %+v, want published 22.80, measured 15", r)
	}
	if r := c.Ratios[1]; r.Published != 0 || math.Abs(r.Measured-30) > 1e-9 {
		t.Errorf("iotdb/sqlite ratio = %+v, want no published ratio, measured 30", r)
	}
	var buf bytes.Buffer
	if err := sc.PrintSystems(&buf, cs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"iotdb/kairosdb", "22.8x", "15x", "5125600.9", "224819.0"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
}
