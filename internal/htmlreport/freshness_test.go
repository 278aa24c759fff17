package htmlreport

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A run with the freshness probe gets a table of its three distributions
// and a note of what was not seen; a run without it gets none.
func TestReportFreshness(t *testing.T) {
	s := twoRuns()[0]
	s.Freshness = &summary.Freshness{Database: "test_freshness", Rate: 10, Written: 600, Visible: 598, Unseen: 2, WaitS: 60,
		AfterAck:  summary.Distribution{Count: 598, P50MS: 1002, P90MS: 1500, P99MS: 1980, MaxMS: 2010},
		AfterSend: summary.Distribution{Count: 598, P50MS: 1003, P90MS: 1501, P99MS: 1981, MaxMS: 2011},
		Polls:     summary.Distribution{Count: 9000, P50MS: 0.4, P90MS: 0.6, P99MS: 1.1, MaxMS: 3}}
	page := render(t, []*summary.Summary{s})
	for _, want := range []string{`<a href="#freshness">Freshness</a>`, `<table id="freshness-table">`,
		"<td class=\"l\">acknowledged → visible</td><td>598</td><td>1,002.00</td><td>1,500.00</td><td>1,980.00</td><td>2,010.00</td>",
		"10.00 writes/s in test_freshness; 598 of 600 acknowledged points seen; 2 never seen within 60.00 s after the run",
		"<td class=\"l\">a poll</td><td>9,000</td><td>0.40</td>"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(render(t, twoRuns()[:1]), `id="freshness-table"`) {
		t.Error("a run without the probe has a freshness table")
	}
}
