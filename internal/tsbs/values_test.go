package tsbs

import (
	"errors"
	"strconv"
	"testing"

	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// A cpu-only run writes TSBS's own data by default: its hosts' tags and
// the values of its table are those of the file tsbs_generate_data wrote
// with the same flags (testdata/golden), row for row.
func TestOwnValuesGolden(t *testing.T) {
	c := tsbsConfig(t, PhaseLoad, map[string]string{"TSBS_SCALE": "4", "TSBS_SEED": "123",
		"TSBS_END": "2016-01-01T01:00:00Z"})
	if err := Apply(c); err != nil {
		t.Fatal(err)
	}
	f, err := parseTimescale(readGolden(t, "cpu-only_seed123_scale4_1h_10s.timescaledb"))
	if err != nil {
		t.Fatal(err)
	}
	table := Table(c)
	if table == nil || table.Devices != 4 || table.Rows != 360 || len(f.rows) != 4*360 {
		t.Fatalf("table %+v for %d golden rows, want 4 hosts x 360 rows", table, len(f.rows))
	}
	o := gen.Options{Seed: 1, Ratios: [6]float64{1, 1, 1, 1, 1, 1}, DoubleLength: 2, BatchSize: 1, Bound: ValueRange, Table: table}
	g, err := gen.New(cpuSchema(4), o)
	if err != nil {
		t.Fatal(err)
	}
	for n, r := range f.rows {
		host, k := n%4, int64(n/4)
		tags, ok := DeviceTags(c, host)
		if !ok || len(tags) != len(r.tags) {
			t.Fatalf("host %d: tags %v, TSBS's %v", host, tags, r.tags)
		}
		for i, kv := range r.tags {
			if tags[i].Key != kv[0] || tags[i].Value != kv[1] {
				t.Fatalf("host %d tag %d: %v, TSBS's %v", host, i, tags[i], kv)
			}
		}
		for i, kv := range r.fields {
			v, _ := g.Number(host, i, k)
			if strconv.FormatFloat(v, 'f', -1, 64) != kv[1] {
				t.Fatalf("host %d row %d %s = %v, TSBS's %s", host, k, kv[0], v, kv[1])
			}
		}
	}
}

// TSBS_VALUES: auto is TSBS's for cpu-only and tsbench's for the others;
// tsbs for devops or iot, or past the memory bound, is refused naming the key.
func TestOwnValuesChoices(t *testing.T) {
	for _, tc := range []struct {
		useCase, values, scale string
		own                    bool
		refused                bool
	}{
		{"cpu-only", ValuesAuto, "10", true, false},
		{"cpu-only", ValuesTSBS, "10", true, false},
		{"cpu-only", ValuesTSBench, "10", false, false},
		{"devops", ValuesAuto, "10", false, false},
		{"iot", ValuesAuto, "10", false, false},
		{"devops", ValuesTSBS, "10", false, true},
		{"iot", ValuesTSBS, "10", false, true},
		{"cpu-only", ValuesAuto, "100000", false, true},
		{"cpu-only", ValuesTSBench, "100000", false, false},
	} {
		c := tsbsConfig(t, PhaseLoad, map[string]string{"TSBS_USE_CASE": tc.useCase, "TSBS_VALUES": tc.values, "TSBS_SCALE": tc.scale})
		own, err := OwnValues(c)
		var e *Error
		if refused := errors.As(err, &e) && e.Key == "TSBS_VALUES" && e.Reason != ""; refused != tc.refused || own != tc.own {
			t.Errorf("%s, TSBS_VALUES=%s, scale %s: own %v, err %v; want own %v, refused %v", tc.useCase, tc.values, tc.scale, own, err, tc.own, tc.refused)
		}
		if tc.refused && Apply(c) == nil {
			t.Errorf("%s, TSBS_VALUES=%s, scale %s: Apply took it", tc.useCase, tc.values, tc.scale)
		}
	}
}

// cpuSchema is hosts hosts with cpu's ten DOUBLE fields.
func cpuSchema(hosts int) *ts.Schema {
	s := &ts.Schema{Database: "test", Groups: []string{"g_0"}}
	for i := range hosts {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: "host_" + strconv.Itoa(i)})
	}
	for _, f := range CPUFields {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: f, Type: ts.Double})
	}
	return s
}
