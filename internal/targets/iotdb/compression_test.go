package iotdb

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// compression=off creates PLAIN, UNCOMPRESSED series; the default creates
// encoded LZ4 ones (the switch the hakom-compression scenario flips).
func TestCompressionSwitch(t *testing.T) {
	targettest.RequireServer(t, "iotdb", "127.0.0.1:6667")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: "d_0"}},
		Sensors: []ts.Sensor{{Name: "s_0", Type: ts.Double}}, StartTime: 0, PointStep: 1000}
	for _, c := range []struct{ option, want string }{{"off", "UNCOMPRESSED"}, {"on", "LZ4"}} {
		conn, err := Driver.Open(ctx, targets.Options{Database: "compression", Extra: map[string]string{"compression": c.option}})
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Setup(ctx, s, true); err != nil {
			t.Fatal(err)
		}
		ds, err := conn.(*Target).session.ExecuteStatementWithContext(ctx, "SHOW TIMESERIES root.compression.**")
		if err != nil {
			t.Fatal(err)
		}
		ok, err := ds.Next()
		if err != nil || !ok {
			t.Fatalf("no timeseries (%v)", err)
		}
		got, err := ds.GetString("Compression")
		ds.Close()
		conn.Close()
		if err != nil || !strings.EqualFold(got, c.want) {
			t.Fatalf("compression=%s: series compression %q (%v), want %s", c.option, got, err, c.want)
		}
	}
}
