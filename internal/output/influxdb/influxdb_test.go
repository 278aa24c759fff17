package influxdb_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/influxdb"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const server = "127.0.0.1:8086" // scripts/services/influxdb.sh

func TestURLs(t *testing.T) {
	for _, c := range []struct{ in, write, db string }{
		{"http://h:8086", "http://h:8086/write?db=tsbench&precision=ms", "tsbench"},
		{"http://h:8086/k6", "http://h:8086/write?db=k6&precision=ms", "k6"},
		{"http://h:8086/write?db=x&rp=week", "http://h:8086/write?db=x&precision=ms&rp=week", ""},
		{"http://h:8086/api/v2/write?bucket=b&org=o&precision=ns", "http://h:8086/api/v2/write?bucket=b&org=o&precision=ns", ""},
	} {
		r, err := influxdb.New(c.in)
		if err != nil || r.Database() != c.db || r.WriteURL() != c.write {
			t.Errorf("New(%q): %v, database %q, write URL %s", c.in, err, r.Database(), r.WriteURL())
		}
	}
	if _, err := influxdb.New("http://h:8086/a/b"); err == nil {
		t.Error("a path of two parts was accepted")
	}
}

func TestEncode(t *testing.T) {
	s := &output.Sample{Labels: output.Labels{RunID: "a b", Worker: "0", Phase: "measure"}, Time: time.UnixMilli(1500),
		Ops: []output.Op{{Name: "INGESTION", OKOpsTotal: 3, OKPointsTotal: 30, OpsPerSecond: 2.5}}}
	got := string(influxdb.Encode(nil, []*output.Sample{s}))
	for _, want := range []string{
		`tsbench_operations_total,operation=INGESTION,phase=measure,run_id=a\ b,worker=0 value=3 1500` + "\n",
		`tsbench_operations_per_second,operation=INGESTION,phase=measure,run_id=a\ b,worker=0 value=2.5 1500` + "\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("no line %q in\n%s", want, got)
		}
	}
}

// A run exported to the real InfluxDB reads back with InfluxQL as the run's
// summary has it: totals equal, each second's p99 equal to the stored one.
func TestInfluxDB(t *testing.T) {
	targettest.RequireServer(t, "influxdb", server)
	const db = "tsbench_output_test"
	labels := outputtest.Labels(t)
	r, err := influxdb.New("http://" + server + "/" + db)
	if err != nil {
		t.Fatal(err)
	}
	s, reports, err := outputtest.Run(t, 5*time.Second, labels, output.Options{Required: true},
		[]string{"influxdb"}, []output.Receiver{r})
	if err != nil {
		t.Fatal(err)
	}
	if reports[0].Sent != int64(len(s.Intervals)) {
		t.Fatalf("report %+v for %d seconds", reports[0], len(s.Intervals))
	}
	ops, pts, _ := outputtest.Totals(s)
	for metric, want := range map[string]int64{output.MetricOperations: ops, output.MetricPoints: pts} {
		rows := query(t, db, fmt.Sprintf(`SELECT last("value") FROM %q WHERE run_id='%s' GROUP BY operation`, metric, labels.RunID))
		var got float64
		for _, r := range rows {
			got += r[0][1]
		}
		if got != float64(want) {
			t.Errorf("%s: %v exported, the summary has %d", metric, got, want)
		}
	}
	for _, o := range s.Operations {
		if o.OKOperations == 0 {
			continue
		}
		want := outputtest.P99s(s, o.Name)
		rows := query(t, db, fmt.Sprintf(`SELECT "value" FROM %q WHERE run_id='%s' AND operation='%s' AND quantile='0.99'`,
			output.MetricLatency, labels.RunID, o.Name))
		var exported []float64
		for _, series := range rows {
			for _, row := range series {
				exported = append(exported, row[1])
			}
		}
		outputtest.CheckP99s(t, o.Name, exported, want)
	}
}

// query runs InfluxQL and gives each series' rows of [time, value].
func query(t *testing.T, db, q string) [][][2]float64 {
	t.Helper()
	body := outputtest.Get(t, "http://"+server+"/query?"+url.Values{"db": {db}, "q": {q}, "epoch": {"ms"}}.Encode())
	var ans struct {
		Results []struct {
			Error  string `json:"error"`
			Series []struct {
				Values [][2]float64 `json:"values"`
			} `json:"series"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &ans); err != nil || len(ans.Results) != 1 || ans.Results[0].Error != "" {
		t.Fatalf("%s: %s (%v)", q, body, err)
	}
	var out [][][2]float64
	for _, s := range ans.Results[0].Series {
		out = append(out, s.Values)
	}
	return out
}
