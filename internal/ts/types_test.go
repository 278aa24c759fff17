package ts

import (
	"errors"
	"strings"
	"testing"
)

// Width is what the binary encodings (tsbench's dataset files, HBase's
// cells) store of each fixed-size type.
func TestWidth(t *testing.T) {
	for typ, want := range map[DataType]int{Boolean: 1, Int32: 4, Float: 4, Int64: 8, Double: 8} {
		if got := typ.Width(); got != want {
			t.Errorf("%s.Width() = %d, want %d", typ, got, want)
		}
	}
}

// EachName visits every name of a schema with its kind, kinds in order,
// and stops at the first error.
func TestEachName(t *testing.T) {
	s := &Schema{Groups: []string{"g"}, Sensors: []Sensor{{Name: "s0"}, {Name: "s1"}},
		Devices: []Device{{Name: "d0", Tags: []Tag{{Key: "k", Value: "v"}}}, {Name: "d1"}}}
	var seen []string
	if err := s.EachName(func(kind, name string) error {
		seen = append(seen, kind+"="+name)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := "group=g sensor=s0 sensor=s1 device=d0 device=d1 tag key=k tag value=v"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("EachName visited %q, want %q", got, want)
	}
	stop := errors.New("stop")
	n := 0
	if err := s.EachName(func(string, string) error { n++; return stop }); !errors.Is(err, stop) || n != 1 {
		t.Errorf("EachName after an error: %v, %d visits; want the error after 1", err, n)
	}
}
