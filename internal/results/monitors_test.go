package results

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// monitorSample is sample i of a session on host, taken at at.
func monitorSample(host string, i int, at time.Time) summary.ResourceSample {
	return summary.ResourceSample{Time: at.Add(123456 * time.Nanosecond), Hostname: host,
		Host: &summary.HostUsage{CPUPercent: 10 + float64(i), Cores: 2, MemUsedBytes: uint64(1000 + i), MemTotalBytes: 4096,
			DiskReadBytesPerS: 1.5, DiskWriteBytesPerS: float64(i) * 100, NetRecvBytesPerS: 3, NetSentBytesPerS: 4},
		Server: &summary.ProcessUsage{PID: 4242, Processes: 3, CPUPercent: 50 + float64(i), RSSBytes: 1 << 20, ReadBytesPerS: 7, WriteBytesPerS: 8}}
}

// checkMonitorSessions stores two sessions of a database host and reads
// back the samples of a run's window, whichever session took them.
func checkMonitorSessions(t *testing.T, st *Store, fx *fixture) {
	ctx := context.Background()
	a := MonitorSession{ID: fx.id("mon-a"), Hostname: "db-1", Started: fx.base, ServerPID: 4242, ServerName: "postgres", IntervalS: 1}
	b := MonitorSession{ID: fx.id("mon-b"), Hostname: "db-2 ✓", Started: fx.base.Add(10 * time.Second), IntervalS: 1}
	stored := map[string][]summary.ResourceSample{}
	for _, m := range []struct {
		s     MonitorSession
		first int // seconds after base of the first sample
		n     int
	}{{a, 0, 5}, {b, 10, 3}} {
		if err := st.BeginMonitor(ctx, m.s); err != nil {
			t.Fatal(err)
		}
		for i := range m.n {
			smp := monitorSample(m.s.Hostname, i, fx.base.Add(time.Duration(m.first+i)*time.Second))
			if err := st.AppendMonitorSample(ctx, m.s.ID, i, smp); err != nil {
				t.Fatal(err)
			}
			stored[m.s.ID] = append(stored[m.s.ID], smp)
		}
	}
	if err := st.BeginMonitor(ctx, a); err == nil {
		t.Error("a session begun twice")
	}
	if err := st.EndMonitor(ctx, b.ID, fx.base.Add(13*time.Second)); err != nil {
		t.Fatal(err)
	}

	list, err := st.Monitors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]MonitorSession{}
	for _, m := range list {
		got[m.ID] = m
	}
	if m := got[a.ID]; m.Samples != 5 || m.Hostname != "db-1" || m.ServerPID != 4242 || m.ServerName != "postgres" || !m.Ended.IsZero() || !m.Started.Equal(fx.base) {
		t.Errorf("session a listed as %+v", m)
	}
	if m := got[b.ID]; m.Samples != 3 || m.Hostname != "db-2 ✓" || !m.Ended.Equal(fx.base.Add(13*time.Second)) {
		t.Errorf("session b listed as %+v", m)
	}

	// Windows: inside a (bounds inclusive), across both, inside b, before
	// both, and after b ended while a (never ended) has nothing there.
	for _, w := range []struct {
		name     string
		from, to int
		want     []summary.ResourceSample
	}{
		{"within a", 1, 3, stored[a.ID][1:4]},
		{"across both", 4, 11, append(append([]summary.ResourceSample{}, stored[a.ID][4]), stored[b.ID][:2]...)},
		{"within b", 11, 20, stored[b.ID][1:]},
		{"before", -10, -1, nil},
		{"after", 30, 40, nil},
	} {
		from := fx.base.Add(time.Duration(w.from) * time.Second)
		to := fx.base.Add(time.Duration(w.to)*time.Second + time.Millisecond)
		samples, err := st.MonitorSamples(ctx, from, to)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON, _ := json.Marshal(w.want)
		gotJSON, _ := json.Marshal(samples)
		if string(wantJSON) != string(gotJSON) {
			t.Errorf("%s: samples\n got %s\nwant %s", w.name, gotJSON, wantJSON)
		}
	}

	if err := st.DeleteMonitor(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ?", a.ID); n != 0 {
		t.Errorf("%d samples of a removed session left", n)
	}
	if err := st.DeleteMonitor(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing a removed session: %v", err)
	}
	if n := count(t, st, "SELECT COUNT(*) FROM tsbench_resources WHERE run_id = ?", b.ID); n != 3 {
		t.Errorf("session b has %d samples after a was removed, want 3", n)
	}
}
