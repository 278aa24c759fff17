package dataset

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// The same points written with each separator files use, found from the
// header and the first rows, or given: each file gives the same dataset.
// A file not split at commas reads 7,35 as a number.
func TestDelimiters(t *testing.T) {
	files := []namedFile{
		{"comma.csv", "time,device,te_in,vf\n2020-01-01T00:00:00,a,21.5,7.35e-07\n2020-01-01T00:00:00,b,21.25,1\n2020-01-01T00:01:00,a,22,0.5\n"},
		// As spreadsheets write CSV where the comma is the decimal mark.
		{"semicolon.csv", "time;device;te_in;vf\n2020-01-01T00:00:00;a;21,5;7,35e-07\n2020-01-01T00:00:00;b;21,25;1\n2020-01-01T00:01:00;a;22;0,5\n"},
		{"tab.txt", "time\tdevice\tte_in\tvf\n2020-01-01T00:00:00\ta\t21.5\t7.35e-07\n2020-01-01T00:00:00\tb\t21.25\t1\n2020-01-01T00:01:00\ta\t22\t0.5\n"},
		{"pipe.csv", "time|device|te_in|vf\n2020-01-01T00:00:00|a|21.5|7.35e-07\n2020-01-01T00:00:00|b|21.25|1\n2020-01-01T00:01:00|a|22|0.5\n"},
		// Aligned with runs of spaces, spaces ending some lines.
		{"space.dat.csv", "time                 device  te_in   vf\n2020-01-01T00:00:00  a       21.5    7.35e-07  \n" +
			"2020-01-01T00:00:00  b       21.25   1\n  2020-01-01T00:01:00  a     22      0.5\n"},
	}
	importsAlike(t, files, func(t *testing.T, m *Manifest) {
		if len(m.Devices) != 2 || m.Rows != 3 || len(m.Sensors) != 2 || m.Sensors[1].Type.String() != "DOUBLE" {
			t.Fatalf("%d devices, %d rows, sensors %+v; want 2 devices, 3 rows, te_in and vf DOUBLE", len(m.Devices), m.Rows, m.Sensors)
		}
	})
	// A comma in each name, a decimal comma in each number: as many
	// fields split at commas as at semicolons, but the commas are inside
	// the semicolons' cells.
	m, err := Import(writeTempFile(t, "names.csv", "Zeit;Station;Temp, degC;Druck, hPa\n31.12.2020 23:59;Bonn;7,35;1013,2\n"+
		"01.01.2021 00:00;Bonn;7,5;1013\n"), t.TempDir(), ImportOptions{})
	if err != nil || m.Rows != 2 || len(m.Sensors) != 2 || m.Sensors[0].Name != "Temp, degC" || m.Sensors[1].Type.String() != "DOUBLE" {
		t.Fatalf("%v: %+v", err, m)
	}
}

// The detection on heads that could be split several ways.
func TestSniffDelimiter(t *testing.T) {
	cases := []struct {
		name, head string
		tsv        bool
		want       rune
	}{
		{"comma", "a,b\n1,2\n", false, ','},
		{"semicolon, decimal commas", "a;b\n1,5;2,5\n", false, ';'},
		{"a header line alone is not enough for a semicolon in a name", "a;x,b\n1,2\n", false, ','},
		{"comma-separated times with spaces", "date time,v\n2020-01-01 00:00,1\n", false, ','},
		{"spaces only where nothing else splits", "date value\n2020-01-01 1\n", false, ' '},
		{"tab wins a tie in a .tsv", "a\tb,c\nx\ty,z\n", true, '\t'},
		{"comma wins a tie elsewhere", "a\tb,c\nx\ty,z\n", false, ','},
		{"commas in a tab file's numbers are decimal commas", "a\tb,c\n1\t2,3\n", false, '\t'},
		{"one column: none", "value\n1\n2\n", false, 0},
		{"ragged: none", "a;b\n1;2;3\n", false, 0},
		{"ragged: the separator of most rows", "a;b\n1;2\n3;4\n1;2;3\n", false, ';'},
		{"a quoted separator is no field", "\"a;b\",c\n\"1;2\",3\n", false, ','},
	}
	for _, c := range cases {
		if got := sniffDelimiter([]byte(c.head), c.tsv); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// Decimal commas, as European spreadsheets write numbers.
func TestDecimalPoint(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"7,35", "7.35", true},
		{" -7,35 ", "-7.35", true},
		{"7,35e-07", "7.35e-07", true},
		{"1.234.567,5", "1234567.5", true},
		{"+0,5", "+0.5", true},
		{"7.35", "7.35", false},
		{"1,2,3", "1,2,3", false},
		{"12.34,5", "12.34,5", false}, // points that group no thousands
		{",5", ",5", false},
		{"a,b", "a,b", false},
		{"7,", "7,", false},
	}
	for _, c := range cases {
		if got, ok := decimalPoint(c.in); got != c.want || ok != c.ok {
			t.Errorf("decimalPoint(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// DATA_DELIMITER says the separator; a file that cannot be read so, or a
// ragged one, is refused naming the separator used and the key.
func TestDelimiterRefusals(t *testing.T) {
	semicolons := "timestamps_UTC;vf;te_in;is shadowed\n2020-01-01T00:00:00;7,35e-07;21,5;0\n2020-01-01T00:01:00;7,40e-07;21,6;1\n"
	cases := []struct {
		name, content string
		o             ImportOptions
		want          []string // "" alone: read
	}{
		{"given", semicolons, ImportOptions{Delimiter: "semicolon"}, nil},
		{"given as the character", semicolons, ImportOptions{Delimiter: ";"}, nil},
		{"given wrong", semicolons, ImportOptions{Delimiter: "comma"},
			[]string{"x.csv:2:", "wrong number of fields: 3, the header has 1", "fields split at comma (,), as DATA_DELIMITER says", "DATA_DELIMITER sets it: auto, comma, semicolon"}},
		{"given wrong, no decimal comma", "timestamps_UTC;vf\n2020-01-01T00:00:00;1\n", ImportOptions{Delimiter: "comma"},
			[]string{"x.csv:1: no time column", `"timestamps_UTC;vf"`, "fields split at comma (,), as DATA_DELIMITER says"}},
		{"ragged rows", "time;v\n2020-01-01;1\n2020-01-01;1\n2020-01-02;2;3\n", ImportOptions{},
			[]string{"x.csv:4:", "wrong number of fields: 3, the header has 2", "fields split at semicolon (;), detected from the header and the first rows", "DATA_DELIMITER"}},
		{"one column", "timestamps_UTC:vf\n2020-01-01T00:00:00:1\n", ImportOptions{},
			[]string{"x.csv:1:", "fields split at comma (,), detected", "DATA_DELIMITER sets it"}},
		{"an unknown separator", semicolons, ImportOptions{Delimiter: "colon"},
			[]string{`DATA_DELIMITER "colon": allowed: auto, comma, semicolon, tab, pipe or space`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Import(writeTempFile(t, "x.csv", c.content), t.TempDir(), c.o)
			if c.want == nil {
				if err != nil || m.Rows != 2 || len(m.Sensors) != 3 {
					t.Fatalf("%v, want 2 rows of 3 sensors", err)
				}
				return
			}
			if !IsInputError(err) {
				t.Fatalf("%v: want an InputError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant %q in it", err, w)
				}
			}
		})
	}
}

// A station-to-archive file (.dat.gz: record markers, no header) is no
// CSV by its name nor its content: refused as such, naming DATA_FORMAT,
// never read as fields of some separator.
func TestStationArchiveRefused(t *testing.T) {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte("\x02STA 10381 2020-01-01 00:00\x03\n\x02REC 1 21.5 1013.2\x03\n\x02REC 2 21.4 1013.1\x03\n"))
	zw.Close()
	_, err := Import(writeTempFile(t, "10381.dat.gz", b.String()), t.TempDir(), ImportOptions{})
	if !IsInputError(err) || !strings.Contains(err.Error(), "10381.dat.gz: unknown format") || !strings.Contains(err.Error(), "DATA_FORMAT") {
		t.Fatalf("%v, want an InputError naming the format and DATA_FORMAT", err)
	}
}
