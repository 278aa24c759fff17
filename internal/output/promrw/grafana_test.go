package promrw_test

import (
	"encoding/json"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/output"
	"github.com/tsbench/tsbench/internal/output/outputtest"
	"github.com/tsbench/tsbench/internal/output/promrw"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// dashboardFile is the Grafana dashboard users import.
const dashboardFile = "../../../deploy/grafana/tsbench.json"

type grafanaTarget struct {
	Expr string `json:"expr"`
}

type grafanaPanel struct {
	Type    string          `json:"type"`
	Title   string          `json:"title"`
	Targets []grafanaTarget `json:"targets"`
}

// Every query of the Grafana dashboard, run by the real VictoriaMetrics
// after a run exported to it (the dashboard's variables set to that run),
// returns series: no panel of deploy/grafana/tsbench.json names a metric or
// label the exporter does not write.
func TestGrafanaDashboard(t *testing.T) {
	raw, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var dash struct {
		UID        string         `json:"uid"`
		Panels     []grafanaPanel `json:"panels"`
		Templating struct {
			List []struct {
				Name       string `json:"name"`
				Definition string `json:"definition"`
			} `json:"list"`
		} `json:"templating"`
	}
	if err := json.Unmarshal(raw, &dash); err != nil || dash.UID == "" {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	targettest.RequireServer(t, "victoriametrics", vm)
	labels := outputtest.Labels(t)
	s, _, err := outputtest.Run(t, 4*time.Second, labels, output.Options{Required: true},
		[]string{"prometheus-rw"}, []output.Receiver{promrw.New("http://" + vm + "/api/v1/write")})
	if err != nil {
		t.Fatal(err)
	}
	all := `tsbench_operations_total{run_id="` + labels.RunID + `"}`
	for i := 0; i < 40 && samples(t, all) < len(s.Intervals); i++ {
		get(t, "/internal/force_flush", nil)
		time.Sleep(250 * time.Millisecond)
	}
	vars := strings.NewReplacer("$run_id", labels.RunID, "$worker", ".*", "$operation", ".*",
		"$__range", "10m", "$__rate_interval", "5s")
	queries := 0
	for _, p := range dash.Panels {
		for _, tg := range p.Targets {
			queries++
			q := vars.Replace(tg.Expr)
			var ans struct {
				Status string `json:"status"`
				Data   struct {
					Result []json.RawMessage `json:"result"`
				} `json:"data"`
			}
			body := get(t, "/api/v1/query", url.Values{"query": {q}})
			if err := json.Unmarshal(body, &ans); err != nil || ans.Status != "success" || len(ans.Data.Result) == 0 {
				t.Errorf("panel %q: %s gives no series: %.300s", p.Title, q, body)
			}
		}
	}
	if queries < 15 {
		t.Errorf("only %d queries in the dashboard", queries)
	}
	// The variables' label_values(METRIC, LABEL) list this run's values.
	for _, v := range dash.Templating.List {
		if !strings.HasPrefix(v.Definition, "label_values(") {
			continue
		}
		args := strings.TrimSuffix(strings.TrimPrefix(v.Definition, "label_values("), ")")
		i := strings.LastIndex(args, ",")
		metric, label := vars.Replace(strings.TrimSpace(args[:i])), strings.TrimSpace(args[i+1:])
		var ans struct {
			Data []string `json:"data"`
		}
		body := get(t, "/api/v1/label/"+label+"/values", url.Values{"match[]": {metric}, "start": {"-1h"}})
		if err := json.Unmarshal(body, &ans); err != nil || len(ans.Data) == 0 {
			t.Errorf("variable %s: %s gives no values: %s", v.Name, v.Definition, body)
		}
	}
}
