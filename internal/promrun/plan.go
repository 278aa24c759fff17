package promrun

import (
	"fmt"
	"net/url"
	"time"

	"github.com/tsbench/tsbench/internal/promshape"
	"github.com/tsbench/tsbench/internal/targets/promql"
)

// job is one query of the read load: an instant query at T, or a range
// query from Start to End by the query's step.
type job struct {
	q          promshape.Query
	expr       string // the query scoped to the run's job label
	t          int64
	start, end int64
	rng        bool
}

// plan lists the read load, time by time so that the workers ask every
// query all along: each rule and alert at every scrape time from the
// fifth on (its window and offset, four intervals, then lie within the
// written range, as a rule evaluated every interval would see them), then
// each dashboard once over the written range.
func (r *Run) plan() ([]job, error) {
	var jobs, dash []job
	last := r.m.Time(r.cfg.Scrapes - 1)
	first := r.m.Time(min(4, r.cfg.Scrapes-1))
	qs := r.m.Queries()
	for t := first; t <= last; t += r.cfg.Shape.Interval.Milliseconds() {
		for _, q := range qs {
			if q.Kind != promshape.Dashboard {
				jobs = append(jobs, job{q: q, expr: Scope(q.PromQL, r.cfg.Shape.Job, r.metrics), t: t})
			}
		}
	}
	for _, q := range qs {
		if q.Kind != promshape.Dashboard {
			continue
		}
		start, err := r.m.RangeStart(first, q.Step)
		if err != nil {
			return nil, err
		}
		if start > last {
			continue // fewer scrapes than a step: no range to draw
		}
		// The end on the step's grid too: VictoriaMetrics aligns it so.
		step := q.Step.Milliseconds()
		end := start + (last-start)/step*step
		dash = append(dash, job{q: q, expr: Scope(q.PromQL, r.cfg.Shape.Job, r.metrics), start: start, end: end, rng: true})
	}
	return append(jobs, dash...), nil
}

// kindOp is a query kind's operation.
func kindOp(k promshape.Kind) int {
	switch k {
	case promshape.Rule:
		return int(opRule)
	case promshape.Alert:
		return int(opAlert)
	}
	return int(opDashboard)
}

// form is the job's query form and API path.
func (j *job) form() (path, form string) {
	v := url.Values{"query": {j.expr}}
	if !j.rng {
		v.Set("time", promql.Seconds(j.t))
		return "/api/v1/query", v.Encode()
	}
	v.Set("start", promql.Seconds(j.start))
	v.Set("end", promql.Seconds(j.end))
	v.Set("step", promql.Seconds(j.q.Step.Milliseconds()))
	return "/api/v1/query_range", v.Encode()
}

// where is the job's time, for messages.
func (j *job) where() string {
	if !j.rng {
		return "at " + time.UnixMilli(j.t).UTC().Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("over [%s, %s] by %v", time.UnixMilli(j.start).UTC().Format(time.RFC3339Nano),
		time.UnixMilli(j.end).UTC().Format(time.RFC3339Nano), j.q.Step)
}
