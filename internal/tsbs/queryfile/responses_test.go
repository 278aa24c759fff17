package queryfile

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

func TestWriteResponse(t *testing.T) {
	sql := &Query{SQL: "SELECT minute, max(usage_user) FROM cpu WHERE time < 'x'"}
	table := targets.Rows{Columns: []string{"minute", "max", "hostname", "hostname"}, Count: 3, Times: []bool{true, false, false, false},
		Values: [][]any{{int64(1451606400000), int64(48), "host_0", "host_1"}, {int64(1451606460000), 37.5, nil, "host_2"}}}
	http := &Query{Method: "GET", Path: "/api/v1/query_range?query=x"}
	for _, tc := range []struct {
		name string
		q    *Query
		a    Answer
		want string
	}{
		{"sql", sql, Answer{Table: table}, `{
  "query": "SELECT minute, max(usage_user) FROM cpu WHERE time \u003c 'x'",
  "results": [
    {
      "hostname": "host_1",
      "max": 48,
      "minute": "2016-01-01T00:00:00Z"
    },
    {
      "hostname": "host_2",
      "max": 37.5,
      "minute": "2016-01-01T00:01:00Z"
    }
  ]
}

(tsbench: 1 more rows of query 7 not printed)

`},
		{"http", http, Answer{Body: []byte(`{"status":"success","data":{"result":[]}}`)}, `ID 7: {
ID 7:   "status": "success",
ID 7:   "data": {
ID 7:     "result": []
ID 7:   }
ID 7: }
`},
		{"influx", &Query{Method: "POST", Path: "/query?q=SELECT+1", RawQuery: "SELECT 1"},
			Answer{Body: []byte(`{"results":[{"statement_id":0}]}`)}, `{
ID 7:   "influxql": "SELECT 1",
ID 7:   "response": {
ID 7:     "results": [
ID 7:       {
ID 7:         "statement_id": 0
ID 7:       }
ID 7:     ]
ID 7:   }
ID 7: }

`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteResponse(&b, 7, tc.q, tc.a); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
	if err := WriteResponse(&strings.Builder{}, 1, http, Answer{Body: []byte("not json")}); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("a body that is not JSON: %v", err)
	}
}
