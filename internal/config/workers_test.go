package config

import (
	"strings"
	"testing"
)

// Shares of WORKERS cover every client exactly once, in order, and differ
// in size by at most one.
func TestClientRangePartitionsTheClients(t *testing.T) {
	for clients := 1; clients <= 40; clients++ {
		for workers := 1; workers <= clients; workers++ {
			next := 0
			for i := 0; i < workers; i++ {
				c := &Config{Clients: clients, Workers: workers, WorkerIndex: i}
				lo, hi := c.ClientRange()
				if lo != next || hi <= lo || hi-lo > clients/workers+1 || hi-lo < clients/workers {
					t.Fatalf("%d clients, worker %d of %d: [%d, %d) after %d", clients, i, workers, lo, hi, next)
				}
				next = hi
			}
			if next != clients {
				t.Fatalf("%d clients over %d workers: shares end at %d", clients, workers, next)
			}
		}
	}
}

func TestWorkerSettings(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want string // "" = accepted
	}{
		{"alone", nil, ""},
		{"three workers", []string{"WORKERS=3", "WORKER_INDEX=2", "RUN_GROUP=g", "CLIENT_NUMBER=3", "DEVICE_NUMBER=3"}, ""},
		{"one worker of a group", []string{"RUN_GROUP=g"}, ""},
		{"start at", []string{"WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2", "START_AT=2026-11-23T10:00:00Z"}, ""},
		{"index past the end", []string{"WORKERS=2", "WORKER_INDEX=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2"},
			`WORKER_INDEX = "2": must be an integer in [0, 1]`},
		{"more workers than clients", []string{"WORKERS=5", "RUN_GROUP=g", "CLIENT_NUMBER=4", "DEVICE_NUMBER=4"},
			"an integer in [1, 4] (CLIENT_NUMBER)"},
		{"no group", []string{"WORKERS=2", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2"}, "RUN_GROUP"},
		{"with BENCHMARK_CLUSTER", []string{"WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2", "BENCHMARK_CLUSTER=true"},
			"use one or the other"},
		{"TPC-C", []string{"WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2", "WORKLOAD=tpcc", "DB_SWITCH=postgres"}, ""},
		{"TPC-C at a start time", []string{"WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2", "WORKLOAD=tpcc",
			"DB_SWITCH=postgres", "START_AT=2026-11-23T10:00:00Z"}, "allowed: unset with WORKLOAD = tpcc and WORKERS"},
		{"start at alone", []string{"START_AT=2026-11-23T10:00:00Z"}, "START_AT"},
		{"bad start at", []string{"WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2", "START_AT=soon"}, "RFC 3339"},
		{"bad barrier timeout", []string{"BARRIER_TIMEOUT=-1s"}, "BARRIER_TIMEOUT"},
		{"data with TPC-C", []string{"DATA=x.csv", "WORKLOAD=tpcc", "DB_SWITCH=postgres"}, "TPC-C loads and runs its own tables"},
		{"data with workers", []string{"DATA=x.csv", "WORKERS=2", "RUN_GROUP=g", "CLIENT_NUMBER=2", "DEVICE_NUMBER=2"}, "1 with DATA"},
		{"bad data type", []string{"DATA_TYPES=temp=REAL"}, "DATA_TYPES"},
		{"bad time unit", []string{"DATA_TIME_UNIT=minutes"}, "DATA_TIME_UNIT"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := FromArgs(c.args...)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
		})
	}
}

// A stored run's configuration (Map) reads back to the same settings.
func TestFromMapRoundTrip(t *testing.T) {
	c, err := FromArgs("WORKERS=2", "WORKER_INDEX=1", "RUN_GROUP=g", "CLIENT_NUMBER=4", "DEVICE_NUMBER=8", "PASSWORD=hunter2",
		"START_AT=2026-11-23T10:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	back, err := FromMap(Map(c), "test")
	if err != nil {
		t.Fatal(err)
	}
	if back.Workers != 2 || back.WorkerIndex != 1 || back.RunGroup != "g" || back.Devices != 8 || !back.StartAt.Equal(c.StartAt) {
		t.Fatalf("read back %+v", back)
	}
	if back.Password != "" {
		t.Fatalf("the redacted password came back as %q, want empty", back.Password)
	}
}
