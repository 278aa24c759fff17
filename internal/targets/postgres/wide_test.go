package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// The wide layout refuses schemas wider than PostgreSQL's column limit with a
// message that names the limit and the way out (seed 002's trains have 3,000
// sensors).
func TestWideRefusesTooManySensors(t *testing.T) {
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{Database: "test", Extra: map[string]string{"layout": "wide"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: "d_0"}}}
	for i := 0; i < 3000; i++ {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprintf("s_%d", i), Type: ts.Double})
	}
	err = conn.Setup(ctx, s, true)
	if !errors.Is(err, targets.ErrUnsupported) || !strings.Contains(err.Error(), "1,600") || !strings.Contains(err.Error(), "layout=narrow") {
		t.Fatalf("Setup with 3,000 sensors: %v", err)
	}
}
