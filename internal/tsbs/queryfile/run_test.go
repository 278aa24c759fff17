package queryfile

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// fileOf is a file of n queries cycling through labels.
func fileOf(n int, labels ...string) []Query {
	qs := make([]Query, n)
	for i := range qs {
		qs[i] = Query{HumanLabel: labels[i%len(labels)], SQL: "SELECT 1"}
	}
	return qs
}

// TestRunCounts: every query of the file is sent once, in the file's
// order per worker; burn-in queries are sent but not measured; max-queries
// stops early; a failed query is counted under its type and the run goes
// on.
func TestRunCounts(t *testing.T) {
	for _, tc := range []struct {
		name                string
		n, workers          int
		burnIn, max         int64
		failEvery           int
		sent, measured, bad int64
	}{
		{"all", 10, 3, 0, 0, 0, 10, 10, 0},
		{"burn-in", 10, 2, 3, 0, 0, 10, 7, 0},
		{"max", 10, 2, 0, 4, 0, 4, 4, 0},
		{"burn-in and max", 10, 4, 2, 5, 0, 5, 3, 0},
		{"burn-in beyond max", 10, 1, 8, 5, 0, 5, 0, 0},
		{"failures", 9, 3, 0, 0, 3, 9, 9, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			qs := fileOf(tc.n, "a", "b")
			var mu sync.Mutex
			sent := map[*Query]int{}
			var queriers []Querier
			for range tc.workers {
				queriers = append(queriers, func(_ context.Context, q *Query) (Answer, error) {
					mu.Lock()
					defer mu.Unlock()
					sent[q]++
					if tc.failEvery > 0 && len(sent)%tc.failEvery == 0 {
						return Answer{}, errors.New("server said no")
					}
					return Answer{Rows: 2}, nil
				})
			}
			var answered sync.Map // n -> the query answered
			onAnswer := func(n int, q *Query, a Answer) {
				if _, dup := answered.LoadOrStore(n, q); dup || q != &qs[n] || a.Rows != 2 {
					t.Errorf("answer %d: query %p (file's %p), %d rows, again %v", n, q, &qs[n], a.Rows, dup)
				}
			}
			res, err := Run(context.Background(), qs, queriers, Options{BurnIn: tc.burnIn, MaxQueries: tc.max, OnAnswer: onAnswer})
			if err != nil {
				t.Fatal(err)
			}
			answers := 0
			answered.Range(func(any, any) bool { answers++; return true })
			if int64(answers) != tc.sent-tc.bad {
				t.Errorf("%d answers handed on, want every answered query's: %d", answers, tc.sent-tc.bad)
			}
			for q, k := range sent {
				if k != 1 {
					t.Errorf("query %p sent %d times", q, k)
				}
			}
			if int64(len(sent)) != tc.sent {
				t.Errorf("%d queries sent, want %d", len(sent), tc.sent)
			}
			var ok, bad, rows int64
			for _, op := range res.Operations {
				ok += op.OKOperations
				bad += op.FailOperations
				rows += op.OKPoints
			}
			if ok+bad != tc.measured || bad != tc.bad || res.Measured != tc.measured || rows != 2*ok {
				t.Errorf("measured %d ok + %d failed (%d rows), result says %d; want %d with %d failed", ok, bad, rows, res.Measured, tc.measured, tc.bad)
			}
			if res.Labels[0] != "a" || res.Labels[1] != "b" {
				t.Errorf("labels %q, want the file's order", res.Labels)
			}
		})
	}
}

func TestRunRefuses(t *testing.T) {
	if _, err := Run(context.Background(), fileOf(1, "a"), nil, Options{}); err == nil {
		t.Error("a run without workers was taken")
	}
	many := make([]string, 40)
	for i := range many {
		many[i] = string(rune('A' + i))
	}
	q := func(context.Context, *Query) (Answer, error) { return Answer{}, nil }
	if _, err := Run(context.Background(), fileOf(40, many...), []Querier{q}, Options{}); err == nil {
		t.Error("a file of 40 query types was taken: the recorder holds 32")
	}
}

func TestCountSeries(t *testing.T) {
	for body, want := range map[string]int{
		`{"status":"success","data":{"resultType":"matrix","result":[]}}`:                                                                   0,
		`{"data":{"result":[{"metric":{"__name__":"a"},"values":[[1,"2"]]},{"metric":{},"values":[]}]}}`:                                    2,
		`{"results":[{"statement_id":0,"series":[{"name":"cpu","columns":["time","max"],"values":[]},{"name":"cpu","columns":["time"]}]}]}`: 2,
		``: 0,
	} {
		if got := countSeries([]byte(body)); got != want {
			t.Errorf("countSeries(%s) = %d, want %d", body, got, want)
		}
	}
}

func TestAnswerError(t *testing.T) {
	for body, want := range map[string]string{
		`{"results":[{"statement_id":0,"series":[]}]}`:                         "",
		`{"status":"success","data":{"result":[]}}`:                            "",
		`{"results":[{"statement_id":0,"error":"database not found: x"}]}`:     "database not found: x",
		`{"status":"error","errorType":"bad_data","error":"unknown function"}`: "unknown function",
		`not json`: "not JSON",
	} {
		err := answerError([]byte(body))
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("answerError(%s) = %v, want %q", body, err, want)
		}
	}
}

// An interrupted run stops taking queries, says it was interrupted, and
// measures only the queries that ran.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	sent := 0
	q := func(context.Context, *Query) (Answer, error) {
		mu.Lock()
		defer mu.Unlock()
		sent++
		if sent == 3 {
			cancel()
		}
		return Answer{Rows: 1}, nil
	}
	res, err := Run(ctx, fileOf(100, "a"), []Querier{q, q}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ok int64
	for _, op := range res.Operations {
		ok += op.OKOperations
	}
	if !res.Interrupted || res.Measured != int64(sent) || ok != int64(sent) || sent > 4 {
		t.Errorf("interrupted %v, measured %d, recorded %d, sent %d: want interrupted after 3 or 4 (one per worker in flight)",
			res.Interrupted, res.Measured, ok, sent)
	}
}
