package hbase

import (
	"encoding/binary"
	"testing"
)

func frame(hdr, msg pb) []byte {
	out := binary.AppendUvarint(nil, uint64(len(hdr)))
	out = append(out, hdr...)
	if msg != nil {
		out = binary.AppendUvarint(out, uint64(len(msg)))
		out = append(out, msg...)
	}
	return out
}

// Answers are matched by call id; an exception becomes a *RemoteError that
// isRemote and retriable recognise by class name.
func TestParseReply(t *testing.T) {
	id, rep, err := parseReply(frame(pb{}.uint(1, 7), pb{}.uint(1, 42)))
	if err != nil || id != 7 || rep.err != nil || string(rep.msg) != string(pb{}.uint(1, 42)) {
		t.Fatalf("plain answer: id %d, %+v, %v", id, rep, err)
	}
	exc := pb{}.str(1, "org.apache.hadoop.hbase.NotServingRegionException").str(2, "region x is not online\n\tat ...")
	id, rep, err = parseReply(frame(pb{}.uint(1, 8).bytes(2, exc), nil))
	if err != nil || id != 8 || !isRemote(rep.err, "NotServingRegionException") || !retriable(rep.err) {
		t.Fatalf("exception: id %d, %v, %v", id, rep.err, err)
	}
	if got := rep.err.Error(); got != "org.apache.hadoop.hbase.NotServingRegionException: region x is not online" {
		t.Fatalf("exception text %q", got)
	}
	if isRemote(rep.err, "TableNotFoundException") {
		t.Fatal("isRemote matched another class")
	}
}

// A ScanResponse's rows and cells decode, and the scanner has more rows only
// while the server says the region has more.
func TestParseScan(t *testing.T) {
	cellMsg := pb{}.bytes(1, []byte("row1")).bytes(2, []byte("d")).bytes(3, qualifier(nil, 3, 1500)).uint(4, 99).bytes(6, []byte{1})
	result := pb{}.bytes(1, cellMsg).bytes(1, cellMsg)
	for _, c := range []struct {
		inRegion bool
		want     bool
	}{{true, true}, {false, false}} {
		msg := pb{}.uint(2, 5).bool(3, true).bytes(5, result).bool(8, c.inRegion)
		r, err := parseScan(msg)
		if err != nil || r.id != 5 || r.more != c.want || len(r.rows) != 1 || len(r.rows[0].cells) != 2 {
			t.Fatalf("in region %v: %+v, %v", c.inRegion, r, err)
		}
		if got := r.rows[0]; string(got.row) != "row1" || got.cells[0].ts != 99 || got.cells[0].value[0] != 1 {
			t.Fatalf("row %+v", got)
		}
	}
}

// The znodes HBase writes (0xFF, metadata, "PBUF", message) give host:port.
func TestParseZnode(t *testing.T) {
	server := pb{}.str(1, "127.0.0.1").uint(2, 16020).uint(3, 1234)
	data := append([]byte{0xFF, 0, 0, 0, 3}, "abc"...)
	data = append(append(data, "PBUF"...), pb{}.bytes(1, server).uint(2, 0)...)
	if addr, err := parseZnode(data); err != nil || addr != "127.0.0.1:16020" {
		t.Fatalf("parseZnode = %q, %v", addr, err)
	}
	if _, err := parseZnode([]byte("garbage")); err == nil {
		t.Fatal("garbage parsed")
	}
}

func TestParseVersion(t *testing.T) {
	entry := func(msg pb) []byte {
		id := []byte("1234@host")
		b := []byte{0xFF, 0, 0, 0, byte(len(id))}
		b = append(append(b, id...), "PBUF"...)
		return append(b, msg...)
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"region server info", entry(pb{}.uint(1, 16030).bytes(2, pb{}.str(1, "2.6.1").str(2, "https://x"))), "2.6.1"},
		{"no version", entry(pb{}.uint(1, 16030)), ""},
		{"no metadata", []byte("PBUF"), ""},
	}
	for _, tt := range tests {
		got, err := parseVersion(tt.data)
		if got != tt.want || (tt.want == "") != (err != nil) {
			t.Errorf("%s: %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
}
