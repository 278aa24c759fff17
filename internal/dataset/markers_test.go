package dataset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// DATA_MISSING: empty keeps the defaults, a list replaces them, signed
// items edit them; a removal of what is no marker, or a list mixing both,
// is refused naming the key, the value and what is allowed.
func TestParseMissing(t *testing.T) {
	cases := []struct {
		text           string
		every, numeric []string // the sets, compared without order
		err            string
	}{
		{"", alwaysMissing, missingMarkers, ""},
		{"none", alwaysMissing, nil, ""},
		{"NA,-999", []string{"null", "NaN", "NA", "-999"}, nil, ""},
		{"+-999,+-99.9", []string{"null", "NaN", "-999", "-99.9"}, missingMarkers, ""},
		{"-NM,--", alwaysMissing, slices.DeleteFunc(slices.Clone(missingMarkers), func(s string) bool { return s == "NM" || s == "-" }), ""},
		{"-NaN", []string{"null"}, missingMarkers, ""},
		{"none,+-9999", []string{"null", "NaN", "-9999"}, nil, ""},
		{"-999", nil, nil, `DATA_MISSING "-999": "-999" removes "999", which is not a marker (the markers: null NaN NA`},
		{"-999", nil, nil, `+-999 adds -999, and a list without signs replaces the markers`},
		{"NA,+-999", nil, nil, `DATA_MISSING "NA,+-999" mixes markers with signed edits: allowed: markers that replace the defaults`},
		{"none,NA", nil, nil, "mixes markers with signed edits"},
		{"-", []string{"null", "NaN", "-"}, nil, ""},
	}
	for _, c := range cases {
		m, err := parseMissing(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || !sameSet(m.every, c.every) || !sameSet(m.numeric, c.numeric) {
			t.Errorf("%q: %v: every %q numeric %q, want %q %q", c.text, err, m.every, m.numeric, c.every, c.numeric)
		}
	}
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// Missing-value markers in a column that is otherwise numbers are no
// points; a TEXT column keeps them as text, and the import says so; a
// sentinel number DATA_MISSING adds is missing however it is written.
func TestMissingMarkers(t *testing.T) {
	const file = "date,v,w,weather\n2020-01-01,1,--,rain\n2020-01-02,NM,2.5,--\n2020-01-03,-,N/A,sun\n" +
		"2020-01-04,#N/A,-999.0,n/a\n2020-01-05,null,-999,NaN\n2020-01-06,6,n/a,fog\n"
	cases := []struct {
		name    string
		missing string
		types   []ts.DataType // v, w, weather
		points  int
		notes   []string
	}{
		{"the defaults", "", []ts.DataType{ts.Int64, ts.Double, ts.Text}, 2 + 3 + 5,
			[]string{`"--" x1 (w)`, `"NM" x1 (v)`, `"-" x1 (v)`, `"NaN" x1 (weather)`,
				`kept as text values: "--" x1 (weather), "n/a" x1 (weather)`, "DATA_MISSING=+MARKER"}},
		{"a sentinel added", "+-999", []ts.DataType{ts.Int64, ts.Double, ts.Text}, 2 + 1 + 5, []string{`"-999" x1 (w), "-999.0" x1 (w)`}},
		{"the markers replaced: in every column", "--,NM,-,#N/A,N/A", []ts.DataType{ts.Int64, ts.Double, ts.Text}, 2 + 3 + 3,
			[]string{`"--" x2 (w, weather)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := Inspect(writeTempFile(t, "x.csv", file), ImportOptions{Missing: c.missing})
			if err != nil {
				t.Fatal(err)
			}
			var types []ts.DataType
			for _, s := range in.Sensors {
				ty, _ := ts.ParseDataType(s.Type)
				types = append(types, ty)
			}
			notes := strings.Join(in.Notes, "\n")
			if !slices.Equal(types, c.types) || in.Points != int64(c.points) {
				t.Fatalf("types %v, %d points; want %v, %d\n%s", types, in.Points, c.types, c.points, notes)
			}
			for _, n := range c.notes {
				if !strings.Contains(notes, n) {
					t.Errorf("want %q in the notes:\n%s", n, notes)
				}
			}
		})
	}
}

// The shape of a US agency's wide file: an unnamed date column, columns
// named "Region : sector", cells of -- (not available) and NM (not
// meaningful), five columns of -- alone. The -- columns are no device key
// (they once named the one device "--_--_--_--_--"), the markers no TEXT
// values: every number is stored, and the inspection lists each marker's
// columns and cells.
func TestAgencyMarkers(t *testing.T) {
	var names []string
	for r := range 4 {
		for s := range 3 {
			names = append(names, fmt.Sprintf("%q", fmt.Sprintf("Region %d : sector %d", r, s)))
		}
	}
	var b strings.Builder
	b.WriteString("," + strings.Join(names, ",") + "\n")
	present := 0
	for i := range 24 {
		fmt.Fprintf(&b, "%d-%02d", 2000+i/12, 1+i%12)
		for j := range names {
			switch {
			case j < 5:
				b.WriteString(",--")
			case j == 6 && i%4 == 0:
				b.WriteString(",NM")
			case j == 7 && i%3 == 0:
				b.WriteString(",--")
			default:
				fmt.Fprintf(&b, ",%d.5", i+j)
				present++
			}
		}
		b.WriteString("\n")
	}
	in, err := Inspect(writeTempFile(t, "steo.csv", b.String()), ImportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in.Devices != 1 || len(in.DeviceColumns) != 0 || in.Points != int64(present) || len(in.Sensors) != 12 || !in.Replayable {
		t.Fatalf("devices %d by %q, %d points (want %d), %d sensors, replayable %v", in.Devices, in.DeviceColumns, in.Points, present, len(in.Sensors), in.Replayable)
	}
	for _, s := range in.Sensors {
		if s.Type != "DOUBLE" {
			t.Fatalf("%s is %s, want DOUBLE (a column of markers is a column of numbers none known)", s.Name, s.Type)
		}
	}
	want := []MarkerFound{{Marker: "--", Column: "Region 0 : sector 0", Cells: 24}, {Marker: "--", Column: "Region 0 : sector 1", Cells: 24},
		{Marker: "--", Column: "Region 0 : sector 2", Cells: 24}, {Marker: "--", Column: "Region 1 : sector 0", Cells: 24},
		{Marker: "--", Column: "Region 1 : sector 1", Cells: 24}, {Marker: "--", Column: "Region 2 : sector 1", Cells: 8},
		{Marker: "NM", Column: "Region 2 : sector 0", Cells: 6}}
	if !slices.Equal(in.Markers, want) {
		t.Fatalf("markers %+v\nwant %+v", in.Markers, want)
	}
	table := in.Table()
	for _, w := range []string{`Markers      "--" x128 missing, in 6 columns: Region 0 : sector 0 x24,`, `"NM" x6 missing, in 1 column: Region 2 : sector 0 x6`} {
		if !strings.Contains(table, w) {
			t.Errorf("want %q in:\n%s", w, table)
		}
	}
}
