// Package dashboard serves a run's live page (--dashboard): while the run
// goes, a page whose charts fill second by second, drawn by the HTML
// report's own chart code (htmlreport.Assets) from the report's chart data
// (htmlreport.ChartsJSON) of the seconds so far; when the run ends, the
// final HTML report at the same address.
//
// The run never waits for the page: the runner hands each second over under
// a short lock, and the charts are computed only when the page asks.
package dashboard

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/htmlreport"
	"github.com/tsbench/tsbench/internal/summary"
)

// DefaultAddr is where --dashboard listens when given no address: k6's
// dashboard port, on loopback only.
const DefaultAddr = "127.0.0.1:5665"

// Window is how many of the latest seconds the live charts show: a 12-hour
// soak's page stays as quick as a minute's, and the server keeps no more
// (the totals above the charts cover the whole run; the final report has
// every second).
const Window = 30 * 60

//go:embed live.html.tmpl
var liveTemplate string

var livePage = template.Must(template.New("live").Parse(liveTemplate))

// Server is one run's dashboard.
type Server struct {
	ln   net.Listener
	srv  *http.Server
	head summary.Summary // run id, target, scenario: what is known before

	mu        sync.Mutex
	intervals []summary.Interval       // the last Window seconds
	samples   []summary.ResourceSample // the last Window samples
	totals    []summary.Operation      // since measuring began, in order of appearance
	final     []byte                   // the final report, once the run ended
	polled    time.Time                // when the page last asked for data
	fetched   chan struct{}
	once      sync.Once
}

// Start listens on addr and serves the page of the run runID (on target,
// scenario phase label) until Finish or Close.
func Start(addr, runID, target, label string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard: %w", err)
	}
	s := &Server{ln: ln, head: summary.Summary{RunID: runID, Target: target, Scenario: label, OpenModel: false},
		fetched: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /data.json", s.data)
	echarts, script := htmlreport.Assets()
	mux.HandleFunc("GET /echarts.js", asset(echarts))
	mux.HandleFunc("GET /report.js", asset(script))
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// URL is the page's address.
func (s *Server) URL() string { return "http://" + s.ln.Addr().String() + "/" }

// Interval takes one closed second (the engine's OnInterval hook). The histogram is
// left out: the live charts do not use it, and a long run's seconds would
// otherwise hold megabytes of them.
func (s *Server) Interval(_ int, iv summary.Interval) {
	ops := make([]summary.IntervalOp, len(iv.Ops))
	for i, o := range iv.Ops {
		o.Histogram = ""
		ops[i] = o
	}
	iv.Ops = ops
	s.mu.Lock()
	defer s.mu.Unlock()
	s.intervals = keepLast(append(s.intervals, iv))
	for _, o := range iv.Ops {
		i := 0
		for i < len(s.totals) && s.totals[i].Name != o.Name {
			i++
		}
		if i == len(s.totals) {
			s.totals = append(s.totals, summary.Operation{Name: o.Name})
		}
		s.totals[i].OKOperations += o.OKOps
		s.totals[i].OKPoints += o.OKPoints
		s.totals[i].FailOperations += o.FailOps
	}
}

// keepLast drops what is older than Window, copying now and then rather
// than every second.
func keepLast[T any](xs []T) []T {
	if len(xs) < 2*Window {
		return xs
	}
	return append([]T(nil), xs[len(xs)-Window:]...)
}

// Resources takes one resource sample (the monitor's OnSample).
func (s *Server) Resources(_ int, smp summary.ResourceSample) {
	s.mu.Lock()
	s.samples = keepLast(append(s.samples, smp))
	s.mu.Unlock()
}

// partial is the run so far as a summary the report's charts read: its
// last Window seconds and resource samples, its operations' counts since
// it began. s.mu is held.
func (s *Server) partial() *summary.Summary {
	p := s.head
	p.Intervals = s.intervals[max(0, len(s.intervals)-Window):]
	p.Operations = append([]summary.Operation(nil), s.totals...)
	if len(s.samples) > 0 {
		p.Resources = &summary.Resources{IntervalSeconds: 1, Samples: s.samples[max(0, len(s.samples)-Window):]}
	}
	return &p
}

// Status is what /data.json says besides the charts.
type Status struct {
	RunID       string          `json:"run_id"`
	Target      string          `json:"target"`
	Scenario    string          `json:"scenario,omitempty"`
	Done        bool            `json:"done"` // the final report is at /
	Seconds     float64         `json:"seconds"`
	Operations  int64           `json:"operations"`
	Points      int64           `json:"points"`
	Failed      int64           `json:"failed"`
	PointsPerS  float64         `json:"points_per_second"` // the last second's
	Charts      json.RawMessage `json:"charts"`
	ChartsError string          `json:"charts_error,omitempty"`
}

func (s *Server) data(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	s.polled = time.Now()
	st := Status{RunID: s.head.RunID, Target: s.head.Target, Scenario: s.head.Scenario, Done: s.final != nil}
	p := s.partial()
	s.mu.Unlock()
	for _, o := range p.Operations {
		st.Operations += o.OKOperations
		st.Points += o.OKPoints
		st.Failed += o.FailOperations
	}
	if n := len(p.Intervals); n > 0 {
		last := p.Intervals[n-1]
		st.Seconds = last.Start + last.Seconds
		for _, o := range last.Ops {
			st.PointsPerS += float64(o.OKPoints) / last.Seconds
		}
	}
	charts, err := htmlreport.ChartsJSON([]*summary.Summary{p})
	if err != nil {
		st.ChartsError = err.Error()
		charts = []byte(`{"runs":1,"sections":[]}`)
	}
	st.Charts = charts
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(st)
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	s.mu.Lock()
	final := s.final
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if final != nil {
		_, _ = w.Write(final)
		s.once.Do(func() { close(s.fetched) })
		return
	}
	_ = livePage.Execute(w, s.head)
}

func asset(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}
}

// Finish puts the final report at the page's address. When a page was
// open (it asked for data in the last few seconds) the server stays up
// until that page has loaded the report, at most linger; then it closes.
func (d *Server) Finish(final *summary.Summary, linger time.Duration) error {
	var buf bytes.Buffer
	if err := htmlreport.Write(&buf, []*summary.Summary{final}, htmlreport.Options{}); err != nil {
		d.Close()
		return fmt.Errorf("dashboard: final report: %w", err)
	}
	d.mu.Lock()
	d.final = buf.Bytes()
	open := !d.polled.IsZero() && time.Since(d.polled) < 3*time.Second
	d.mu.Unlock()
	if open {
		select {
		case <-d.fetched:
		case <-time.After(linger):
		}
	}
	d.Close()
	return nil
}

// Close stops serving.
func (d *Server) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := d.srv.Shutdown(ctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		_ = d.srv.Close()
	}
}
