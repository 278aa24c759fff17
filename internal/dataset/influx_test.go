package dataset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestParseLP(t *testing.T) {
	cases := []struct {
		line, want string // want: measurement|tags|fields|time, or "error col: msg"
	}{
		{`cpu,host=a,region=eu usage=1.5,n=3i,u=4u,ok=T,s="a \"b\" c" 1700000000000000000`,
			`cpu|host=a,region=eu|usage:float:1.5 n:integer:3 u:unsigned:4 ok:boolean:true s:string:a "b" c|1700000000000000000`},
		{`my\ m,tag\,k=v\=1 f\ 1=-2e3 5`, `my m|tag,k=v=1|f 1:float:-2e3|5`},
		{`m f=1`, `m||f:float:1|none`},
		{`m,t=1  f=FALSE,g="" 7`, `m|t=1|f:boolean:false g:string:|7`},
		{`m`, `error 2: no fields`},
		{`m,t f=1 1`, `error 3: a tag without a key=value`},
		{`m f= 1`, `error 5: field f has no value`},
		{`m f=1x 1`, `error 5: field f: "1x" is not a value`},
		{`m f=99999999999999999999u 1`, `error 5: field f: "99999999999999999999u" is not an unsigned`},
		{`m f=9999999999999999999u 1`, `error 5: field f: "9999999999999999999u" exceeds INT64`},
		{`m f="abc 1`, `error 5: field f: a string without its closing quote`},
		{`m f=1 12ab`, `error 7: timestamp "12ab" is not an integer`},
		{`m f=1 12 x`, `error 10: text after the timestamp`},
		// The decoder's faults in tsbench's words, at the columns they name.
		{`,m f=1 1`, `error 1: no measurement name`},
		{`m, f=1 1`, `error 3: a tag without a key=value`},
		{`m,t=1,u= f=1 1`, `error 9: tag u has no value`},
		{`m,t=1`, `error 6: no fields`},
		{`m f 1`, `error 3: a field without a key=value`},
		{`m f=1,g 2`, `error 7: a field without a key=value`},
		{`m f=12xi 1`, `error 5: field f: "12xi" is not an integer`},
		{`m f=1e999 1`, `error 5: field f: "1e999" is not a finite number`},
		{`m s="a,b c",f= 1`, `error 15: field f has no value`},
		{`m f="x",g="y`, `error 11: field g: a string without its closing quote`},
		{`m f=1 99999999999999999999`, `error 7: timestamp "99999999999999999999" is not an integer`},
		// The decoder skips spaces before the measurement; columns count them.
		{`  m,t=1 f=1,g=x 2`, `error 15: field g: "x" is not a value`},
		{`  m,t=1 f=1,g=2 2x`, `error 17: timestamp "2x" is not an integer`},
		{`m,t\ k=v\ w f\=g=1i,s="a\\b" 2`, `m|t k=v w|f=g:integer:1 s:string:a\b|2`},
	}
	for _, c := range cases {
		var p lpLine
		e := parseLP([]byte(c.line), &p)
		var got string
		if e != nil {
			got = fmt.Sprintf("error %d: %s", e.col, e.msg)
		} else {
			var tags, fields []string
			for _, tg := range p.tags {
				tags = append(tags, tg.Key+"="+tg.Value)
			}
			for _, f := range p.fields {
				fields = append(fields, fmt.Sprintf("%s:%s:%s", f.key, f.kind, f.text))
			}
			tm := "none"
			if p.hasTime {
				tm = fmt.Sprint(p.time)
			}
			got = strings.Join([]string{p.measurement, strings.Join(tags, ","), strings.Join(fields, " "), tm}, "|")
		}
		if !strings.HasPrefix(got, c.want) {
			t.Errorf("%s:\n got %s\nwant %s", c.line, got, c.want)
		}
	}
}

// tsbsLines are TSBS-style lines: every field of a point on one line, two
// tags, nanoseconds.
func tsbsLines() []string {
	var out []string
	for i := 0; i < 30; i++ {
		for h := 0; h < 3; h++ {
			out = append(out, fmt.Sprintf("cpu,hostname=host_%d,region=eu-west-1 usage_user=%d.5,usage_idle=%di,on=%v %d",
				h, i, 100-i, i%2 == 0, int64(1451606400+10*i)*1e9))
		}
	}
	return out
}

// exportLines are the same points as influx_inspect export writes them:
// a header, then one field per line, series by series.
func exportLines() []string {
	out := []string{"# INFLUXDB EXPORT: 1677-09-21T00:12:43Z - 2262-04-11T23:47:16Z", "# DDL", "CREATE DATABASE benchmark WITH NAME autogen",
		"# DML", "# CONTEXT-DATABASE:benchmark", "# CONTEXT-RETENTION-POLICY:autogen", "# writing tsm data"}
	for h := 0; h < 3; h++ {
		for _, f := range []string{"on", "usage_idle", "usage_user"} {
			for i := 0; i < 30; i++ {
				v := map[string]string{"on": fmt.Sprint(i%2 == 0), "usage_idle": fmt.Sprintf("%di", 100-i), "usage_user": fmt.Sprintf("%d.5", i)}[f]
				out = append(out, fmt.Sprintf("cpu,hostname=host_%d,region=eu-west-1 %s=%s %d", h, f, v, int64(1451606400+10*i)*1e9))
			}
		}
	}
	return out
}

// A TSBS file and an export of the same points give the same dataset:
// measurement the group, the tags the device, the fields typed sensors.
func TestInfluxImport(t *testing.T) {
	importsAlike(t, []namedFile{
		{"tsbs.lp", strings.Join(tsbsLines(), "\n") + "\n"},
		{"export.txt", strings.Join(exportLines(), "\r\n")},
		{"influx-data.gz", string(gzipped(t, strings.Join(shuffled(tsbsLines()), "\n"), 2))},
	}, func(t *testing.T, m *Manifest) {
		wantSensors := []ts.Sensor{{Name: "on", Type: ts.Boolean}, {Name: "usage_idle", Type: ts.Int64}, {Name: "usage_user", Type: ts.Double}}
		if m.Format != "influx" || !slices.Equal(m.Sensors, wantSensors) || len(m.Devices) != 3 || m.Rows != 90 ||
			!slices.Equal(m.Groups, []string{"cpu"}) || m.MinTime != 1451606400000 || m.Step != 10000 {
			t.Fatalf("got %s %+v %d devices, %d rows, groups %v, min %d step %d", m.Format, m.Sensors, len(m.Devices), m.Rows, m.Groups, m.MinTime, m.Step)
		}
		d := m.Devices[0]
		if d.Name != "host_0_eu-west-1" || !slices.Equal(d.Tags, []ts.Tag{{Key: "hostname", Value: "host_0"}, {Key: "region", Value: "eu-west-1"}}) {
			t.Fatalf("device %+v", d)
		}
	})
}

// Measurements are groups; DATA_DEVICE_COLUMNS picks the tags naming the
// device; DATA_TIME_UNIT the precision; DATA_SENSOR_COLUMNS the fields.
func TestInfluxKeys(t *testing.T) {
	content := "a,host=x,rack=1 v=1,w=2 1700000000\nb,host=y,rack=2 v=3,w=4 1700000000\na,host=x,rack=1 v=5,w=6 1700000060\n"
	src := writeTempFile(t, "m.lp", content)
	m, err := Import(src, t.TempDir(), ImportOptions{TimeUnit: "s", DeviceColumns: []string{"host"}, SensorColumns: []string{"v"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Groups, []string{"a", "b"}) || len(m.Devices) != 2 || m.Devices[0].Name != "a_x" || m.Devices[1].Group != 1 ||
		len(m.Sensors) != 1 || m.MinTime != 1700000000000 || m.Rows != 3 {
		t.Fatalf("got groups %v devices %+v sensors %+v min %d rows %d", m.Groups, m.Devices, m.Sensors, m.MinTime, m.Rows)
	}
}

// DATA_SENSOR_COLUMNS keeps one measurement of a TSBS devops file, whose
// measurements have other fields: its devices only, named without it.
func TestInfluxOneMeasurement(t *testing.T) {
	content := "cpu,hostname=h1 usage_user=1,usage_idle=2 1700000000000000000\nmem,hostname=h1 used=5i 1700000000000000000\n" +
		"cpu,hostname=h1 usage_user=3,usage_idle=4 1700000010000000000\nmem,hostname=h1 used=6i 1700000010000000000\n"
	m, err := Import(writeTempFile(t, "devops.lp", content), t.TempDir(), ImportOptions{SensorColumns: []string{"usage_user", "usage_idle"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Groups, []string{"cpu"}) || len(m.Devices) != 1 || m.Devices[0].Name != "h1" || m.Rows != 2 || len(m.Sensors) != 2 {
		t.Fatalf("got groups %v devices %+v sensors %+v rows %d", m.Groups, m.Devices, m.Sensors, m.Rows)
	}
}

// Faults name file, line and column.
func TestInfluxErrors(t *testing.T) {
	cases := []struct{ content, want string }{
		{"# DML\ncpu,host=a v=1 1\ncpu,host=a v=x 2\n", `m.lp:3: column 14: field v: "x" is not a value`},
		{"cpu v=1\n", "m.lp:1: column 8: no timestamp"},
		{"cpu v=1 1\ncpu v=\"s\" 2\n", "m.lp:2: column 7: field v is a string here, a float at line 1 column 7"},
		{"cpu s=\"a, b\",v=1 1\ncpu s=\"c\",v=true 2\n", "m.lp:2: column 13: field v is a boolean here, a float at line 1 column 16"},
		{"cpu,host=a v=1 1\ncpu,host=a v=1,w=1x 2\n", `m.lp:2: column 18: field w: "1x" is not a value`},
		{"# only comments\n", "no data lines"},
	}
	for _, c := range cases {
		_, err := Import(writeTempFile(t, "m.lp", c.content), t.TempDir(), ImportOptions{})
		if !IsInputError(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want an InputError with %q", c.content, err, c.want)
		}
	}
}
