package dataset

import (
	"slices"
	"strings"
	"testing"
)

// Rows of units under the names, as loggers and spreadsheets write them,
// are no data: each column's unit, shown by an inspection. DATA_HEADER_ROWS
// says how many lines the header has where detection would not.
func TestHeaderRows(t *testing.T) {
	const units = "time,GHI,T_air\n[UTC],[W/m2],degC\n"
	const rows = "2020-01-01 00:00:00+00:00,0,3.5\n2020-01-01 01:00:00+00:00,12.5,3.25\n2020-01-01 02:00:00+00:00,80,4\n"
	cases := []struct {
		name, content string
		o             ImportOptions
		units         []string // of the sensors
		note          string
		rows          int64
	}{
		{"a units row", units + rows, ImportOptions{}, []string{"[W/m2]", "degC"}, "line 2 is a header row under the names, not data", 3},
		{"units and a row of what each value is", units + "TS,Avg,Smp\n" + rows, ImportOptions{},
			[]string{"[W/m2]", "degC"}, "lines 2-3 are header rows under the names", 3},
		{"an empty cell and a marker among the units", "time,GHI,T_air,rh\n,[W/m2],-,%\n" + "2020-01-01T00:00:00Z,1,2,3\n2020-01-01T01:00:00Z,1,2,3\n",
			ImportOptions{}, []string{"[W/m2]", "-", "%"}, "line 2 is a header row", 2},
		{"semicolons and decimal commas", "Zeit;Globalstrahlung;Temperatur\n;W/m2;°C\n31.12.2020 23:00;0;3,5\n31.12.2020 23:10;1,5;3,25\n",
			ImportOptions{}, []string{"W/m2", "°C"}, "line 2 is a header row", 2},
		{"DATA_HEADER_ROWS gives them", units + "TS,Avg,Smp\n" + rows, ImportOptions{HeaderRows: 3},
			[]string{"[W/m2]", "degC"}, "as DATA_HEADER_ROWS=3 says", 3},
		{"a first row with a time is data", "time,v,w\n2020-01-01,NA,x\n2020-01-02,1,y\n", ImportOptions{}, []string{"", ""}, "", 2},
		{"a first row of text over text is data", "date,weather,v\n2020-01-01,rain,\n2020-01-02,sun,1\n", ImportOptions{}, []string{"", ""}, "", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := Inspect(writeTempFile(t, "x.csv", c.content), c.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range in.Sensors {
				got = append(got, s.Unit)
			}
			notes := strings.Join(in.Notes, "\n")
			if !slices.Equal(got, c.units) || in.Rows != c.rows || (c.note == "") != !strings.Contains(notes, "header row") ||
				!strings.Contains(notes, c.note) {
				t.Fatalf("units %q, %d rows, notes:\n%s\nwant units %q, %d rows, a note with %q", got, in.Rows, notes, c.units, c.rows, c.note)
			}
			if c.units[0] != "" && !strings.Contains(in.Table(), "(unit "+c.units[0]+")") {
				t.Fatalf("the table shows no unit:\n%s", in.Table())
			}
		})
	}
}

// A header the keys say is shorter or longer than the file is refused,
// naming DATA_HEADER_ROWS; DATA_HEADER_ROWS=1 reads a units row as data,
// whose time then stops the import where it stands.
func TestHeaderRowsRefused(t *testing.T) {
	content := "time,GHI\n[UTC],[W/m2]\n2020-01-01T00:00:00Z,1\n"
	cases := []struct {
		o    ImportOptions
		want []string
	}{
		{ImportOptions{HeaderRows: 1}, []string{"x.csv:2: column time:", `"[UTC]" is not a timestamp`}},
		{ImportOptions{HeaderRows: 4}, []string{"DATA_HEADER_ROWS 4: the file has 2 lines under its names"}},
		{ImportOptions{HeaderRows: -1}, []string{"DATA_HEADER_ROWS -1: allowed: 0 (detected), 1 (the names alone) or more"}},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, "x.csv", content), t.TempDir(), c.o)
		if !IsInputError(err) {
			t.Fatalf("%+v: %v, want an InputError", c.o, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: %v\nwant %q in it", c.o, err, w)
			}
		}
	}
}
