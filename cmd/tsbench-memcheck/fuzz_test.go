package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseMB: --max-growth takes any text to a finite size >= 0 or an
// error saying what is wanted, never a panic; the size written back with
// its unit reads as the same size.
func FuzzParseMB(f *testing.F) {
	for _, s := range []string{"10", "10MB", "2.5 MB", "0", "10mb", "-1", "MB", "", "1e3MB", "NaN", "Inf", "0x10", "10 GB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := parseMB(s)
		if err != nil {
			if !strings.Contains(err.Error(), "MB") {
				t.Fatalf("parseMB(%q): the message does not say what is wanted: %v", s, err)
			}
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			t.Fatalf("parseMB(%q) = %v, want a finite size >= 0", s, v)
		}
		if back, err := parseMB(strconv.FormatFloat(v, 'g', -1, 64) + "MB"); err != nil || back != v {
			t.Fatalf("parseMB(%q) = %v; written back it reads %v, %v", s, v, back, err)
		}
	})
}
