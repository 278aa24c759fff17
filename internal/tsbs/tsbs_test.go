package tsbs

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/ts"
)

func tsbsConfig(t *testing.T, phase string, set map[string]string) *config.Config {
	t.Helper()
	c := config.Default()
	for k, v := range map[string]string{"TSBS_USE_CASE": "cpu-only", "TSBS_PHASE": phase, "TSBS_SCALE": "10",
		"TSBS_LOG_INTERVAL": "10s", "TSBS_START": "2016-01-01T00:00:00Z", "TSBS_END": "2016-01-02T00:00:00Z",
		"TSBS_QUERIES": "100", "CLIENT_NUMBER": "4", "BATCH_SIZE_PER_WRITE": "100"} {
		if err := config.Set(c, k, v); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range set {
		if err := config.Set(c, k, v); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// Apply turns TSBS's keys into tsbench's, phase by phase.
func TestApply(t *testing.T) {
	cases := []struct {
		phase string
		set   map[string]string
		check func(t *testing.T, c *config.Config)
	}{
		{PhaseLoad, nil, func(t *testing.T, c *config.Config) {
			// 8,640 rows of 10 s a day: batches of 96 (the largest
			// divisor up to 100), 90 of them.
			if c.Devices != 10 || c.Sensors != 10 || c.PointStep != 10_000 || c.BatchSize != 96 || c.Loop != 90 ||
				c.WriteWeight() != 1 || c.StartTime.UnixMilli() != 1451606400000 || c.DevicePrefix != "host_" {
				t.Errorf("load: %+v", c)
			}
		}},
		{"single-groupby-5-8-1", nil, func(t *testing.T, c *config.Config) {
			if c.QueryWeight(ts.GroupBy) != 1 || c.QueryDevices != 8 || c.QuerySensors != 5 || c.QueryInterval != 3_600_000 ||
				c.GroupByUnit != 60_000 || c.QueryAggregate != ts.Max || c.Clients != 4 || c.Loop != 25 || c.CreateSchema {
				t.Errorf("single-groupby-5-8-1: %+v", c)
			}
			// Each 1 h window starts at random, as TSBS's, within the day
			// from which it ends by TSBS_END.
			if c.StepSize != 0 || WindowStarts(c) != 86_400_000-3_600_000 {
				t.Errorf("STEP_SIZE %d, window starts among %d ms", c.StepSize, WindowStarts(c))
			}
			// TSBS's first five cpu fields, usage_user ... usage_iowait.
			if FieldPool(c) != 5 {
				t.Errorf("single-groupby-5 draws its 5 fields among the first %d, want the first 5", FieldPool(c))
			}
		}},
		{"double-groupby-all", nil, func(t *testing.T, c *config.Config) {
			if c.QueryDevices != 10 || c.QuerySensors != 10 || c.QueryAggregate != ts.Avg || c.GroupByUnit != 3_600_000 {
				t.Errorf("double-groupby-all: %+v", c)
			}
		}},
		{"double-groupby-1", nil, func(t *testing.T, c *config.Config) {
			if c.QuerySensors != 1 || FieldPool(c) != 1 {
				t.Errorf("double-groupby-1 reads %d of the first %d fields, want usage_user alone", c.QuerySensors, FieldPool(c))
			}
		}},
		{"high-cpu-all", map[string]string{"TSBS_QUERIES": "7"}, func(t *testing.T, c *config.Config) {
			// 7 queries: one client makes all of them.
			if c.QueryWeight(ts.ValueRange) != 1 || c.QueryLower != 90 || c.QueryDevices != 10 || c.Clients != 1 || c.Loop != 7 {
				t.Errorf("high-cpu-all: %+v", c)
			}
			if FieldPool(c) != 1 {
				t.Errorf("high-cpu reads usage_user alone, pool %d", FieldPool(c))
			}
		}},
		{PhaseMixed, nil, func(t *testing.T, c *config.Config) {
			if c.WriteWeight() != 1 || c.QueryWeight(ts.GroupBy) != 1 || c.Loop != 4*90 {
				t.Errorf("mixed: %+v", c)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.phase, func(t *testing.T) {
			c := tsbsConfig(t, tc.phase, tc.set)
			if err := Apply(c); err != nil {
				t.Fatal(err)
			}
			if err := config.Resolve(c); err != nil {
				t.Fatal(err)
			}
			tc.check(t, c)
		})
	}
}

// Bad TSBS values name the key and what it takes.
func TestApplyRefuses(t *testing.T) {
	cases := []struct {
		phase string
		set   map[string]string
		key   string
	}{
		{PhaseLoad, map[string]string{"TSBS_START": "yesterday"}, "TSBS_START"},
		{PhaseLoad, map[string]string{"TSBS_END": "2015-12-31T00:00:00Z"}, "TSBS_END"},
		{PhaseLoad, map[string]string{"TSBS_LOG_INTERVAL": "1500us"}, "TSBS_LOG_INTERVAL"},
		{PhaseLoad, map[string]string{"TSBS_SCALE": "0"}, "TSBS_SCALE"},
		{"cpu-max-all-8", map[string]string{"TSBS_SCALE": "4"}, "TSBS_SCALE"},
		{"no-such-query", nil, "TSBS_PHASE"},
		{PhaseLoad, map[string]string{"TSBS_USE_CASE": "cpu-single"}, "TSBS_USE_CASE"},
	}
	for _, tc := range cases {
		c := tsbsConfig(t, tc.phase, tc.set)
		err := Apply(c)
		var e *Error
		if !errors.As(err, &e) || e.Key != tc.key || e.Allowed == "" {
			t.Errorf("%s %v: %v, want an error about %s", tc.phase, tc.set, err, tc.key)
		}
	}
}

// A host's tags are TSBS's ten, from TSBS's value lists, the same in every
// run with the same seed.
func TestHostTags(t *testing.T) {
	u, _ := Lookup("cpu-only")
	regionOf := map[string]string{}
	for _, r := range regions {
		for _, d := range r.datacenters {
			regionOf[d] = r.name
		}
	}
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		tags := u.Tags(1, i)
		again := u.Tags(1, i)
		if len(tags) != 10 || tags[0].Value != "host_"+strconv.Itoa(i) {
			t.Fatalf("host %d: %v", i, tags)
		}
		for j := range tags {
			if tags[j] != again[j] {
				t.Fatalf("host %d: tags differ between calls", i)
			}
		}
		if regionOf[tags[2].Value] != tags[1].Value {
			t.Errorf("host %d: datacenter %s is not in region %s", i, tags[2].Value, tags[1].Value)
		}
		seen[tags[1].Value] = true
	}
	if len(seen) != len(regions) {
		t.Errorf("200 hosts in %d of %d regions", len(seen), len(regions))
	}
	truck, _ := Lookup("iot")
	tags := truck.Tags(1, 3)
	var keys []string
	for _, tg := range tags {
		keys = append(keys, tg.Key)
	}
	if strings.Join(keys, ",") != "name,fleet,driver,model,device_version,load_capacity,fuel_capacity,nominal_fuel_consumption" {
		t.Errorf("truck tags %v", keys)
	}
}

// The use cases have TSBS's fields and query types.
func TestUseCases(t *testing.T) {
	want := map[string][2]int{"cpu-only": {10, 15}, "devops": {101, 15}, "iot": {10, 12}}
	for name, w := range want {
		u, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(u.Fields) != w[0] || len(u.Queries) != w[1] {
			t.Errorf("%s: %d fields, %d query types", name, len(u.Fields), len(u.Queries))
		}
		for _, q := range u.Queries {
			if (q.Kind == 0) == (q.Unsupported == "") {
				t.Errorf("%s/%s: a query type has a kind or a reason it has none", name, q.Name)
			}
			if q.Kind != 0 && q.Differs == "" {
				t.Errorf("%s/%s: say how tsbench's answer compares with TSBS's", name, q.Name)
			}
		}
	}
	if d, _ := Lookup("devops"); d.Fields[0] != "cpu_usage_user" || d.Fields[100] != "redis_used_cpu_user_children" {
		t.Errorf("devops fields %s ... %s", d.Fields[0], d.Fields[100])
	}
}

func TestDivisorAtMost(t *testing.T) {
	for _, c := range []struct{ n, limit, want int64 }{{8640, 100, 96}, {720, 100, 90}, {7, 4, 1}, {100, 4, 4}, {3, 10, 3}, {1, 5, 1}} {
		if got := divisorAtMost(c.n, c.limit); got != c.want {
			t.Errorf("divisorAtMost(%d, %d) = %d, want %d", c.n, c.limit, got, c.want)
		}
	}
}

// A key the TSBS run derives, given by the user with another value, is
// refused with the TSBS key to set instead, not silently replaced; the
// same value is taken.
func TestOwnedKeyRefused(t *testing.T) {
	base := map[string]string{"TSBS_USE_CASE": "cpu-only", "TSBS_PHASE": "load", "TSBS_SCALE": "2",
		"TSBS_LOG_INTERVAL": "10s", "TSBS_START": "2016-01-01T00:00:00Z", "TSBS_END": "2016-01-01T01:00:00Z"}
	apply := func(extra map[string]string) error {
		c := config.Default()
		for _, m := range []map[string]string{base, extra} {
			for k, v := range m {
				if err := config.Set(c, k, v); err != nil {
					t.Fatal(err)
				}
			}
		}
		return Apply(c)
	}
	for _, tc := range []struct{ phase, key, value, want string }{
		{"load", "LOOP", "1", `flag: LOOP = "1": TSBS_END sets it to 4 here: set TSBS_END instead, or leave LOOP out`},
		{"load", "DEVICE_NUMBER", "3", `flag: DEVICE_NUMBER = "3": TSBS_SCALE sets it to 2 here`},
		{"groupby-orderby-limit", "GROUP_BY_LIMIT", "2", `flag: GROUP_BY_LIMIT = "2": TSBS_PHASE sets it to 5 here`},
	} {
		err := apply(map[string]string{"TSBS_PHASE": tc.phase, tc.key: tc.value})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s=%s: error %v, want %q", tc.key, tc.value, err, tc.want)
		}
	}
	// The value the run would set anyway, or a key it does not own.
	for _, extra := range []map[string]string{{"LOOP": "4"}, {"DEVICE_NUMBER": "2"}, {"CLIENT_NUMBER": "7"}} {
		if err := apply(extra); err != nil {
			t.Errorf("%v: %v", extra, err)
		}
	}
}

// config's TSBS workloads are this package's use cases, "tsbs-" before
// each: WORKLOAD takes exactly the use cases there are.
func TestWorkloadsAreTheUseCases(t *testing.T) {
	var want []string
	for _, n := range Names() {
		want = append(want, WorkloadPrefix+n)
	}
	if !slices.Equal(config.WorkloadsTSBS, want) {
		t.Errorf("config.WorkloadsTSBS = %v, the use cases are %v", config.WorkloadsTSBS, want)
	}
	for _, w := range want {
		if uc, ok := WorkloadUseCase(strings.ToUpper(w)); !ok || WorkloadPrefix+uc != w {
			t.Errorf("WorkloadUseCase(%s) = %q, %v", w, uc, ok)
		}
	}
	for _, w := range []string{config.WorkloadTimeSeries, config.WorkloadTPCC, "", "tsbs-"} {
		if uc, ok := WorkloadUseCase(w); ok {
			t.Errorf("WorkloadUseCase(%q) = %q: no TSBS workload", w, uc)
		}
	}
}

// A TSBS workload must agree with TSBS_USE_CASE, which run and generate
// set from it; a TSBS workload nothing turned into its phases is refused.
func TestApplyWorkloadAgainstUseCase(t *testing.T) {
	for _, tc := range []struct {
		workload, useCase string
		errKey            string // "" when taken
	}{
		{"tsbs-cpu-only", "cpu-only", ""},
		{"TSBS-IOT", "iot", ""},
		{config.WorkloadTimeSeries, "devops", ""},
		{"tsbs-cpu-only", "iot", "TSBS_USE_CASE"},
		{"tsbs-devops", "", "WORKLOAD"},
	} {
		c := tsbsConfig(t, PhaseLoad, map[string]string{"WORKLOAD": tc.workload, "TSBS_USE_CASE": tc.useCase})
		err := Apply(c)
		var e *Error
		if got := errors.As(err, &e); got != (tc.errKey != "") || (got && e.Key != tc.errKey) {
			t.Errorf("WORKLOAD=%s TSBS_USE_CASE=%s: %v, want refused naming %q", tc.workload, tc.useCase, err, tc.errKey)
		}
	}
}
