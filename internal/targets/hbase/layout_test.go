package hbase

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// A point's row key, qualifier and value decode back to its device, time,
// sensor and value, for every type and for times on either side of bucket
// and epoch edges.
func TestEncodingRoundTrip(t *testing.T) {
	cases := []struct {
		name   string
		device string
		time   int64
		sensor int
		col    ts.Column
		want   float64
		num    bool
	}{
		{"boolean true", "d_0", 1_640_995_200_000, 0, ts.Column{Type: ts.Boolean, Bools: []bool{true}}, 1, true},
		{"boolean false", "d_0", 1_640_995_200_001, 1, ts.Column{Type: ts.Boolean, Bools: []bool{false}}, 0, true},
		{"int32 negative", "d_12", 1_640_998_799_999, 2, ts.Column{Type: ts.Int32, Int32s: []int32{-123456}}, -123456, true},
		{"int64 beyond 2^53", "d_1", 3_599_999, 3, ts.Column{Type: ts.Int64, Int64s: []int64{1<<62 + 1}}, float64(1<<62 + 1), true},
		{"float", "dev-x", 0, 4, ts.Column{Type: ts.Float, Floats: []float32{-2.5}}, -2.5, true},
		{"double", "d_5", 7_200_000, 65535, ts.Column{Type: ts.Double, Doubles: []float64{math.Pi}}, math.Pi, true},
		{"double before the epoch", "d_5", -1, 7, ts.Column{Type: ts.Double, Doubles: []float64{-0.125}}, -0.125, true},
		{"text", "d_3", 1_640_995_212_345, 9, ts.Column{Type: ts.Text, Texts: []string{"héllo"}}, 0, false},
		{"empty text", "d_3", 1_640_995_212_346, 9, ts.Column{Type: ts.Text, Texts: []string{""}}, 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bucket := bucketOf(c.time)
			if off := c.time - bucket; off < 0 || off >= bucketMs || bucket%bucketMs != 0 {
				t.Fatalf("bucketOf(%d) = %d", c.time, bucket)
			}
			dev, b, err := parseRowKey(rowKey(nil, c.device, bucket))
			if err != nil || dev != c.device || b != bucket {
				t.Fatalf("row key decodes to %q, %d (%v), want %q, %d", dev, b, err, c.device, bucket)
			}
			sn, off, err := parseQualifier(qualifier(nil, c.sensor, c.time-bucket))
			if err != nil || sn != c.sensor || bucket+off != c.time {
				t.Fatalf("qualifier decodes to sensor %d at %d (%v), want %d at %d", sn, bucket+off, err, c.sensor, c.time)
			}
			v, num, err := decodeValue(c.col.Type, encodeValue(nil, &c.col, 0))
			if err != nil || v != c.want || num != c.num {
				t.Fatalf("value decodes to %v, %v (%v), want %v, %v", v, num, err, c.want, c.num)
			}
			// Stored integers are exact even where a float64 is not.
			if enc := encodeValue(nil, &c.col, 0); c.col.Type == ts.Int64 && int64(binary.BigEndian.Uint64(enc)) != c.col.Int64s[0] {
				t.Fatalf("INT64 %d stored as %x", c.col.Int64s[0], enc)
			}
		})
	}
}

// Row keys sort by device, then by time, also across the epoch; a device's
// row range holds none of another device whose name it prefixes.
func TestRowKeyOrder(t *testing.T) {
	keys := [][]byte{
		rowKey(nil, "d_1", -bucketMs),
		rowKey(nil, "d_1", 0),
		rowKey(nil, "d_1", bucketMs),
		rowKey(nil, "d_10", 0),
		rowKey(nil, "d_2", 0),
	}
	for i := 1; i < len(keys); i++ {
		if bytes.Compare(keys[i-1], keys[i]) >= 0 {
			t.Errorf("key %d (%x) does not sort before key %d (%x)", i-1, keys[i-1], i, keys[i])
		}
	}
	start, stop := deviceRange("d_1")
	for i, k := range keys {
		in := bytes.Compare(k, start) >= 0 && bytes.Compare(k, stop) < 0
		if in != (i < 3) {
			t.Errorf("key %d in d_1's range = %v", i, in)
		}
	}
	start, stop = timeRows("d_1", 0, bucketMs) // exactly one bucket
	if !bytes.Equal(start, keys[1]) || !bytes.Equal(stop, keys[2]) {
		t.Errorf("timeRows(d_1, one hour) = %x..%x, want %x..%x", start, stop, keys[1], keys[2])
	}
}

func TestDecodeValueRejectsWrongWidth(t *testing.T) {
	if _, _, err := decodeValue(ts.Double, []byte{1, 2, 3}); err == nil {
		t.Fatal("a 3-byte DOUBLE decoded without error")
	}
}

func TestTableFor(t *testing.T) {
	for db, want := range map[string]string{"tsbench": "tsbench_tsbench", "root.sg-1": "tsbench_root.sg-1", "a b/c:d": "tsbench_a_b_c_d"} {
		if got := tableFor(db); got != want {
			t.Errorf("tableFor(%q) = %q, want %q", db, got, want)
		}
	}
}
