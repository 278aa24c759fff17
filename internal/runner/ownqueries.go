package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/engine"
	"github.com/tsbench/tsbench/internal/metrics"
	"github.com/tsbench/tsbench/internal/ownquery"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/workload"
)

// ownQueries are the user's own queries (QUERY_FILE) as this run's target
// runs them: operation workload.NumOps+i is query i of the file.
type ownQueries struct {
	file  *ownquery.File
	lang  *targets.Language
	texts []ownquery.Text // query i's text for the target
	u     ownquery.Universe
	// steps is the most write steps any client has done: the written span
	// (Universe.Span) grows with it.
	steps atomic.Int64
}

// sampleRows is how many rows of each checked answer the summary keeps.
const sampleRows = 20

// SetQueries gives the run the user's own queries (checked against the
// target with ownquery.File.Check): they join the mix with their weights,
// beside OPERATION_PROPORTION's; with QUERY_ONLY they are the whole mix.
func (r *Runner) SetQueries(f *ownquery.File) error {
	if err := f.Check(r.driver, r.cfg.QueryOnly); err != nil {
		return err
	}
	o := &ownQueries{file: f, lang: r.driver.Language}
	for _, q := range f.Queries {
		t, _ := q.For(r.driver)
		o.texts = append(o.texts, t)
	}
	r.own = o
	r.cfg.OwnWeights = f.Weights()
	return nil
}

// weights are the mix (config.Config.Weights).
func (r *Runner) weights() []int64 { return r.cfg.Weights() }

// opNames are the names of the run's operations, by workload.Op.
func (r *Runner) opNames() []string {
	names := metrics.OperationNames()
	if r.own != nil {
		names = append(names, r.own.file.Names()...)
	}
	return names
}

// prepareOwn fills the universe the parameters draw from: the devices and
// sensors as the server stores them, the written span, and the values of
// every from parameter (its query run once, now).
func (r *Runner) prepareOwn(ctx context.Context, admin targets.Target) error {
	o := r.own
	if o == nil {
		return nil
	}
	var mapped map[string]string
	if m, ok := admin.(targets.NameMapper); ok {
		mapped = m.NameMapping()
	}
	server := func(what, name string) string {
		if s, ok := mapped[what+" "+name]; ok {
			return s
		}
		return name
	}
	for _, d := range r.schema.Devices {
		o.u.Devices = append(o.u.Devices, server("device", d.Name))
	}
	for _, s := range r.schema.Sensors {
		o.u.Sensors = append(o.u.Sensors, ownquery.SensorName{Name: server("sensor", s.Name), Numeric: s.Type.Numeric()})
	}
	o.u.Span = r.writtenSpan
	o.u.From = map[string][]ownquery.Value{}
	for _, q := range o.file.Queries {
		for _, p := range q.Params {
			if p.Kind != ownquery.From {
				continue
			}
			rows, err := runStatement(ctx, admin, &targets.Statement{Text: p.Query})
			if err != nil {
				return fmt.Errorf("%s: query %s: parameter %s: from %q: %w", r.driver.Name, q.Name, p.Name, p.Query, err)
			}
			if o.u.From[p.Name] = ownquery.FromRows(rows); len(o.u.From[p.Name]) == 0 {
				return badinput.Errorf("%s:%d: query %s: parameter %s: from %q answered no values on %s: nothing to draw from",
					o.file.Path, p.Line, q.Name, p.Name, p.Query, r.driver.Name)
			}
		}
	}
	return nil
}

// writtenSpan is the time range written so far: from the data's start to
// the end of the most write steps any client has done (earlier phases'
// rows included); a replay's whole file.
func (r *Runner) writtenSpan() (time.Time, time.Time) {
	start := r.schema.StartTime
	if d, ok := r.src.(dataSource); ok {
		return time.UnixMilli(start), time.UnixMilli(d.ds.MaxTime + r.schema.PointStep)
	}
	rows := r.PriorRows + r.own.steps.Load()*int64(r.cfg.BatchSize)
	return time.UnixMilli(start), time.UnixMilli(start + max(rows, 1)*r.schema.PointStep)
}

// ownClient is one client's part of the own queries: its drawers, the
// rows each query returned, and the statement each execution is rendered
// into (its storage reused).
type ownClient struct {
	draw []*ownquery.Drawer
	rows []*hdrhistogram.Histogram
	st   targets.Statement
}

func (r *Runner) newOwnClient(id int) *ownClient {
	if r.own == nil {
		return nil
	}
	oc := &ownClient{}
	for i, q := range r.own.file.Queries {
		oc.draw = append(oc.draw, q.NewDrawer(&r.own.u, uint64(r.cfg.QuerySeed), uint64(id)<<8|uint64(i)))
		oc.rows = append(oc.rows, hdrhistogram.New(0, 1<<40, 2))
	}
	return oc
}

// doOwn runs own query i once, with parameters drawn anew.
func (c *client) doOwn(h *engine.Handle, op workload.Op, warm bool) {
	i := int(op) - workload.NumOps
	h.Do(c.op(op, 0), warm, func(ctx context.Context) (int64, error) {
		st, err := c.renderOwn(i)
		if err != nil {
			return 0, err
		}
		rows, err := runStatement(ctx, c.conn, st)
		if err == nil && !warm {
			_ = c.own.rows[i].RecordValue(rows.Count)
		}
		return rows.Count, err
	})
}

// renderOwn draws own query i's parameters anew and renders it into the
// client's statement, to be counted only: the answers are checked apart
// (ownSummary).
func (c *client) renderOwn(i int) (*targets.Statement, error) {
	o := c.r.own
	vals, err := c.own.draw[i].Draw()
	if err != nil {
		return nil, err
	}
	st := &c.own.st
	if err := o.texts[i].Tmpl.RenderTo(st, vals, o.lang); err != nil {
		return nil, err
	}
	st.CountOnly = true
	return st, nil
}

// ownWritten records a client's finished write step.
func (r *Runner) ownWritten(steps int64) {
	if r.own == nil {
		return
	}
	for {
		cur := r.own.steps.Load()
		if steps <= cur || r.own.steps.CompareAndSwap(cur, steps) {
			return
		}
	}
}

// ownSummary fills the run's record of its own queries: rows returned per
// execution, the answers to the checked parameter sets (QUERY_CHECKS of
// them, drawn with fixed seeds so that every target is asked the same),
// and with EXPLAIN each query's plan.
func (r *Runner) ownSummary(ctx context.Context, admin targets.Target, clients []*client, s *summary.Summary) {
	o := r.own
	if o == nil {
		return
	}
	qf := &summary.QueryFile{Path: o.file.Path, QueryOnly: r.cfg.QueryOnly}
	for i, q := range o.file.Queries {
		oq := summary.OwnQuery{Name: q.Name, Key: o.texts[i].Key, Language: o.lang.Name, Engine: o.lang.Engine, Text: o.texts[i].Tmpl.Text, Weight: q.Weight}
		rows := hdrhistogram.New(0, 1<<40, 2)
		for _, c := range clients {
			rows.Merge(c.own.rows[i])
		}
		if rows.TotalCount() > 0 {
			oq.RowsMin, oq.RowsMedian, oq.RowsMax = rows.Min(), rows.ValueAtQuantile(50), rows.Max()
		}
		draw := q.NewDrawer(&o.u, uint64(r.cfg.QuerySeed), 1<<32|uint64(i))
		for k := range r.cfg.QueryChecks {
			a, st := r.ownAnswer(ctx, admin, draw, o.texts[i].Tmpl)
			oq.Answers = append(oq.Answers, a)
			if k == 0 && r.cfg.Explain && st != nil {
				oq.Plan, oq.PlanError = r.explain(ctx, admin, st)
			}
		}
		qf.Queries = append(qf.Queries, oq)
	}
	s.QueryFile = qf
}

// ownAnswer asks one checked parameter set and keeps its answer.
func (r *Runner) ownAnswer(ctx context.Context, admin targets.Target, draw *ownquery.Drawer, t *ownquery.Template) (summary.Answer, *targets.Statement) {
	var a summary.Answer
	vals, err := draw.Draw()
	if err != nil {
		a.Error = err.Error()
		return a, nil
	}
	a.Params = map[string]string{}
	for name, v := range vals {
		a.Params[name] = v.String()
	}
	st, err := t.Render(vals, r.own.lang)
	if err != nil {
		a.Error = err.Error()
		return a, nil
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
	defer cancel()
	ans, err := runStatement(ctx, admin, &st)
	if err != nil {
		a.Error = err.Error()
		return a, &st
	}
	a.Rows, a.Values = ans.Count, ans.Values
	a.Sample = ans.Values[:min(len(ans.Values), sampleRows)]
	return a, &st
}

// explain captures st's plan in the target's language, if it has EXPLAIN.
func (r *Runner) explain(ctx context.Context, admin targets.Target, st *targets.Statement) (plan, why string) {
	if r.own.lang.Explain == nil {
		return "", fmt.Sprintf("%s has no EXPLAIN that tsbench knows", r.own.lang.Name)
	}
	ex := *st
	ex.Text = r.own.lang.Explain(st.Text)
	ctx, cancel := context.WithTimeout(ctx, r.cfg.ReadTimeout)
	defer cancel()
	rows, err := runStatement(ctx, admin, &ex)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return "", "EXPLAIN timed out"
		}
		return "", err.Error()
	}
	var lines []string
	for _, row := range rows.Values {
		var cells []string
		for _, v := range row {
			if v != nil {
				cells = append(cells, fmt.Sprint(v))
			}
		}
		lines = append(lines, strings.Join(cells, " "))
	}
	return strings.Join(lines, "\n"), ""
}

// runStatement runs an own query on a connection, which runs statements
// when its driver declares a language (ownquery.File.Check refused the
// file otherwise).
func runStatement(ctx context.Context, t targets.Target, st *targets.Statement) (targets.Rows, error) {
	run, ok := t.(targets.StatementRunner)
	if !ok {
		return targets.Rows{}, fmt.Errorf("%T runs no statements of its own: %w", t, targets.ErrUnsupported)
	}
	return run.RunStatement(ctx, st)
}
