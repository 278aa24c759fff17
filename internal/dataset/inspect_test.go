package dataset

import (
	"slices"
	"strings"
	"testing"
)

// An inspection says how each format is read and counts what a replay
// would write, missing points included.
func TestInspect(t *testing.T) {
	cases := []struct {
		name, content string
		format, time  string
		devices       []string
		sensors       []string
		rows, points  int64
		missing, dups int64
		step          int64
		gzip_         bool
	}{
		{name: "weather.csv", content: "date,location,temp_max,temp_min\n2012-01-01,Seattle,12.8,5\n2012-01-02,Seattle,10.6,\n2012-01-01,Oslo,1,-3\n2012-01-02,Oslo,2,-4\n2012-01-02,Oslo,2,-4\n",
			format: "csv-wide", time: "date: a date (2006-01-02), in UTC", devices: []string{"location"}, sensors: []string{"temp_max DOUBLE", "temp_min INT64"},
			rows: 5, points: 9, missing: 1, dups: 1, step: 86400000},
		{name: "long.csv", content: "time,city,sensor,value\n1767225600,Oslo,t,1\n1767225600,Oslo,h,2\n1767226600,Oslo,t,3\n",
			format: "csv-long", time: "time: integer, s since the epoch", devices: []string{"city"}, sensors: []string{"h INT64", "t INT64"},
			rows: 2, points: 3, missing: 1, step: 1000000},
		{name: "m.lp", content: "cpu,host=a v=1,s=\"x\" 1700000000000000000\ncpu,host=a v=2,s=\"y\" 1700000001000000000\n",
			format: "influx", time: "timestamp: integer, ns since the epoch", devices: []string{"host"}, sensors: []string{"s TEXT", "v DOUBLE"},
			rows: 2, points: 4, step: 1000},
		{name: "p.jsonl", content: `{"metric":{"__name__":"t","host":"a"},"values":[1,null],"timestamps":[1700000000000,1700000060000]}` + "\n",
			format: "prometheus", time: "timestamps: integer, ms since the epoch", devices: []string{"host"}, sensors: []string{"t DOUBLE"},
			rows: 2, points: 1, missing: 1, step: 60000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := Inspect(writeTempFile(t, c.name, c.content), ImportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var sensors []string
			for _, s := range in.Sensors {
				sensors = append(sensors, s.Name+" "+s.Type)
			}
			tm := in.Time.Column + ": " + in.Time.Format
			if in.Format != c.format || tm != c.time || !slices.Equal(in.DeviceColumns, c.devices) || !slices.Equal(sensors, c.sensors) ||
				in.Rows != c.rows || in.Points != c.points || in.Missing != c.missing || in.DuplicateRows != c.dups ||
				in.StepMillis != c.step || !in.Replayable {
				t.Fatalf("got %+v", in)
			}
			table := in.Table()
			if !strings.Contains(table, "Format       "+c.format) || strings.Contains(table, " \n") {
				t.Fatalf("table:\n%s", table)
			}
		})
	}
}

// Faults are input errors naming file, line and column, as an import's.
func TestInspectErrors(t *testing.T) {
	_, err := Inspect(writeTempFile(t, "m.lp", "cpu v=1 1\ncpu v=1x 2\n"), ImportOptions{})
	if !IsInputError(err) || !strings.Contains(err.Error(), `m.lp:2: column 7: field v: "1x" is not a value`) {
		t.Fatalf("%v", err)
	}
}
