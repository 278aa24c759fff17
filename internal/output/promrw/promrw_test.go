package promrw_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/golang/snappy"
	"github.com/prometheus/prometheus/prompb"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/output/promrw"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const vm = "127.0.0.1:8428" // scripts/services/victoriametrics.sh

// The request decodes with the same protobuf types into one series per
// metric, operation and quantile, with every second's sample in order,
// labels sorted and __name__ first.
func TestEncode(t *testing.T) {
	batch := []*output.Sample{
		{Labels: output.Labels{RunID: "r", Worker: "1", Phase: "measure"}, Time: time.UnixMilli(1000), T: 1,
			Ops: []output.Op{{Name: "INGESTION", OKOpsTotal: 5, OKPointsTotal: 50}}},
		{Labels: output.Labels{RunID: "r", Worker: "1", Phase: "measure"}, Time: time.UnixMilli(2000), T: 2,
			Ops: []output.Op{{Name: "INGESTION", OKOpsTotal: 9, OKPointsTotal: 90}}},
	}
	raw, err := snappy.Decode(nil, promrw.Encode(batch))
	if err != nil {
		t.Fatal(err)
	}
	var req prompb.WriteRequest
	if err := req.Unmarshal(raw); err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, ts := range req.Timeseries {
		var parts []string
		for _, l := range ts.Labels {
			parts = append(parts, l.Name+"="+l.Value)
		}
		if !sort.StringsAreSorted(parts) {
			t.Errorf("labels not sorted: %v", parts)
		}
		if strings.Join(parts, ",") == "__name__=tsbench_operations_total,operation=INGESTION,phase=measure,run_id=r,worker=1" {
			found = true
			if len(ts.Samples) != 2 || ts.Samples[0].Value != 5 || ts.Samples[1].Value != 9 || ts.Samples[1].Timestamp != 2000 {
				t.Errorf("samples %+v", ts.Samples)
			}
		}
	}
	if !found {
		t.Errorf("no tsbench_operations_total series in %+v", req.Timeseries)
	}
	if len(req.Metadata) == 0 || req.Metadata[0].MetricFamilyName != output.MetricOperations || req.Metadata[0].Type != prompb.MetricMetadata_COUNTER {
		t.Errorf("metadata %+v", req.Metadata)
	}
}

// A run exported to the real VictoriaMetrics reads back with PromQL as the
// run's summary has it: total operations and points equal, and each
// second's p99 equal to the stored per-second figure.
func TestVictoriaMetrics(t *testing.T) {
	targettest.RequireServer(t, "victoriametrics", vm)
	labels := outputtest.Labels(t)
	r := promrw.New("http://" + vm + "/api/v1/write")
	s, reports, err := outputtest.Run(t, 5*time.Second, labels, output.Options{Required: true},
		[]string{"prometheus-rw"}, []output.Receiver{r})
	if err != nil {
		t.Fatal(err)
	}
	if reports[0].Sent != int64(len(s.Intervals)) || !reports[0].OK() {
		t.Fatalf("report %+v for %d seconds", reports[0], len(s.Intervals))
	}
	// VictoriaMetrics makes what it took searchable within a few seconds
	// (force_flush hurries it): wait, boundedly, for every second. Each
	// sample carries every operation's totals so far, so some series has
	// them all.
	all := fmt.Sprintf(`%s{run_id=%q}`, output.MetricOperations, labels.RunID)
	for i := 0; i < 40 && samples(t, all) < len(s.Intervals); i++ {
		get(t, "/internal/force_flush", nil)
		time.Sleep(250 * time.Millisecond)
	}
	ops, pts, _ := outputtest.Totals(s)
	sel := fmt.Sprintf(`{run_id=%q}`, labels.RunID)
	for metric, want := range map[string]int64{output.MetricOperations: ops, output.MetricPoints: pts} {
		q := fmt.Sprintf("sum(last_over_time(%s%s[10m]))", metric, sel)
		if got := instant(t, q); got != float64(want) {
			t.Errorf("%s = %v, the summary has %d", q, got, want)
		}
	}
	for _, op := range operations(s) {
		want := outputtest.P99s(s, op)
		got := export(t, fmt.Sprintf(`%s{run_id=%q,operation=%q,quantile="0.99"}`, output.MetricLatency, labels.RunID, op))
		outputtest.CheckP99s(t, op, got, want)
	}
}

func operations(s *summary.Summary) []string {
	var out []string
	for _, o := range s.Operations {
		if o.OKOperations > 0 {
			out = append(out, o.Name)
		}
	}
	return out
}

// get is the body of a GET of VictoriaMetrics' path with query q.
func get(t *testing.T, path string, q url.Values) []byte {
	t.Helper()
	u := "http://" + vm + path
	if q != nil {
		u += "?" + q.Encode()
	}
	return outputtest.Get(t, u)
}

// instant is the value of a PromQL query that gives one number.
func instant(t *testing.T, q string) float64 {
	t.Helper()
	var ans struct {
		Data struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	body := get(t, "/api/v1/query", url.Values{"query": {q}})
	if err := json.Unmarshal(body, &ans); err != nil || len(ans.Data.Result) != 1 {
		t.Fatalf("%s: %s (%v)", q, body, err)
	}
	v, err := strconv.ParseFloat(fmt.Sprint(ans.Data.Result[0].Value[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// samples is the most samples any series matching sel has.
func samples(t *testing.T, sel string) int {
	body := get(t, "/api/v1/export", url.Values{"match[]": {sel}, "start": {"-1h"}})
	n := 0
	for _, row := range strings.Split(strings.TrimSpace(string(body)), "\n") {
		var line struct {
			Timestamps []int64 `json:"timestamps"`
		}
		if json.Unmarshal([]byte(row), &line) == nil {
			n = max(n, len(line.Timestamps))
		}
	}
	return n
}

// export is the raw samples of one series, in time order.
func export(t *testing.T, sel string) []float64 {
	t.Helper()
	body := get(t, "/api/v1/export", url.Values{"match[]": {sel}, "start": {"-1h"}})
	var line struct {
		Values     []float64 `json:"values"`
		Timestamps []int64   `json:"timestamps"`
	}
	rows := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(rows) != 1 {
		t.Fatalf("%s: %d series exported, want 1", sel, len(rows))
	}
	if err := json.Unmarshal([]byte(rows[0]), &line); err != nil {
		t.Fatal(err)
	}
	if !sort.SliceIsSorted(line.Timestamps, func(i, j int) bool { return line.Timestamps[i] < line.Timestamps[j] }) {
		t.Fatalf("%s: timestamps out of order", sel)
	}
	return line.Values
}
