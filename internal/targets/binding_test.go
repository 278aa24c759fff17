package targets

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestBinding(t *testing.T) {
	// Devices 10..12: a client of a cluster run whose index offset is 10, so
	// a position differs from an index.
	schema := &ts.Schema{
		Devices: []ts.Device{{Index: 10, Name: "d_10"}, {Index: 11, Name: "d_11"}, {Index: 12, Name: "d_12"}},
		Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Double}},
	}
	cases := []struct {
		name    string
		target  string
		schema  *ts.Schema // nil: Set is not called
		device  *ts.Device
		wantPos int
		wantErr string // "" for success
	}{
		{"unbound", "clickhouse", nil, &ts.Device{Index: 10, Name: "d_10"}, -1,
			"clickhouse: no schema: call Setup or Bind first"},
		{"unbound without a name", "", nil, &ts.Device{Index: 10, Name: "d_10"}, -1,
			"no schema: call Setup or Bind first"},
		{"first device", "influxdb", schema, &ts.Device{Index: 10, Name: "d_10"}, 0, ""},
		{"last device", "influxdb", schema, &ts.Device{Index: 12, Name: "d_12"}, 2, ""},
		{"device after the schema", "mysql", schema, &ts.Device{Index: 13, Name: "d_13"}, -1,
			`mysql: device "d_13" (index 13) is not in the schema`},
		{"device before the schema", "postgres", schema, &ts.Device{Index: 9, Name: "d_9"}, -1,
			`postgres: device "d_9" (index 9) is not in the schema`},
		{"absent device without a name", "", schema, &ts.Device{Index: 3, Name: "d_3"}, -1,
			`device "d_3" (index 3) is not in the schema`},
		{"no device", "duckdb", schema, nil, -1, "duckdb: no device given"},
		{"empty schema", "questdb", &ts.Schema{}, &ts.Device{Index: 0, Name: "d_0"}, -1,
			`questdb: device "d_0" (index 0) is not in the schema`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := NewBinding(c.target)
			if c.schema != nil {
				b.Set(c.schema)
			}

			s, err := b.Schema()
			if c.schema == nil {
				if err == nil || err.Error() != c.wantErr {
					t.Errorf("Schema() error = %v, want %q", err, c.wantErr)
				}
				if s != nil {
					t.Errorf("Schema() = %p, want nil", s)
				}
			} else if err != nil || s != c.schema {
				t.Errorf("Schema() = %p, %v; want %p, nil", s, err, c.schema)
			}

			s, pos, err := b.DevicePos(c.device)
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("DevicePos() error = %v, want %q", err, c.wantErr)
				}
				if s != nil || pos != -1 {
					t.Errorf("DevicePos() on error = %p, %d; want nil, -1", s, pos)
				}
				return
			}
			if err != nil {
				t.Fatalf("DevicePos() error = %v", err)
			}
			if s != c.schema || pos != c.wantPos {
				t.Errorf("DevicePos() = %p, %d; want %p, %d", s, pos, c.schema, c.wantPos)
			}
		})
	}
}

// TestBindingRebind: a later Set replaces the schema (Setup with another
// schema on the same connection).
func TestBindingRebind(t *testing.T) {
	b := NewBinding("sqlite")
	first := &ts.Schema{Devices: []ts.Device{{Index: 0, Name: "d_0"}}}
	second := &ts.Schema{Devices: []ts.Device{{Index: 5, Name: "d_5"}}}
	b.Set(first)
	b.Set(second)
	s, pos, err := b.DevicePos(&second.Devices[0])
	if err != nil || s != second || pos != 0 {
		t.Fatalf("DevicePos(d_5) = %p, %d, %v; want %p, 0, nil", s, pos, err, second)
	}
	if _, _, err := b.DevicePos(&first.Devices[0]); err == nil {
		t.Fatal("DevicePos(d_0) of the replaced schema succeeded")
	}
}

func TestOptionsDefaults(t *testing.T) {
	cases := []struct {
		o        Options
		host     string
		port     int
		database string
	}{
		{Options{}, "127.0.0.1", 8086, "test"},
		{Options{Host: "db.example", Port: 5432, Database: "bench"}, "db.example", 5432, "bench"},
		{Options{Port: 1}, "127.0.0.1", 1, "test"},
	}
	for _, c := range cases {
		if h, p := c.o.HostPort(8086); h != c.host || p != c.port {
			t.Errorf("%+v: HostPort = %s, %d; want %s, %d", c.o, h, p, c.host, c.port)
		}
		if d := c.o.DatabaseOr("test"); d != c.database {
			t.Errorf("%+v: DatabaseOr = %q, want %q", c.o, d, c.database)
		}
	}
}
