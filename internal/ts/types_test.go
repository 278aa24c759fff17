package ts

import "testing"

// Width is what the binary encodings (tsbench's dataset files, HBase's
// cells) store of each fixed-size type.
func TestWidth(t *testing.T) {
	for typ, want := range map[DataType]int{Boolean: 1, Int32: 4, Float: 4, Int64: 8, Double: 8} {
		if got := typ.Width(); got != want {
			t.Errorf("%s.Width() = %d, want %d", typ, got, want)
		}
	}
}
