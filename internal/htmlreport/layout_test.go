package htmlreport

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/htmlreport/browser"
	"github.com/tsbench/tsbench/internal/results/resultstest"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/workload"
)

// bigRuns are two runs whose figures are as wide as a fast server's: a
// write throughput of hundreds of millions of points per second, latencies
// of seconds, ratios to three decimals.
func bigRuns() []*summary.Summary {
	run := func(id string, seed uint64, rate int, latency time.Duration) *summary.Summary {
		return resultstest.Summary(resultstest.Run{ID: id, Seconds: 12, Seed: seed, Ops: []resultstest.Op{
			{Op: workload.Write, OpsPerSec: rate, Points: 100000, Latency: latency, RateNoise: 0.05, FailPerSec: 3},
			{Op: 2, OpsPerSec: rate / 10, Points: 100000, Latency: 3 * latency, FailPerSec: 1}}})
	}
	return []*summary.Summary{run("20260301-120000-aaaaaa", 1, 9876, 1234567*time.Microsecond),
		run("20260302-120000-bbbbbb", 2, 9135, 1141234*time.Microsecond)}
}

// clipCheck measures, as the page's last script (the charts' boxes have
// fixed sizes, so their drawing moves no cell), every cell of the operations' tables against each box that could cut it:
// the cell itself (its text wider than it), every ancestor that clips or
// scrolls its overflow, and the window. It writes the cells cut into
// #clip-check as JSON.
const clipCheck = `<pre id="clip-check"></pre><script>
(function () {
  var cut = [];
  var viewport = document.documentElement.clientWidth;
  document.querySelectorAll('.op td, .op th').forEach(function (cell) {
    var r = cell.getBoundingClientRect();
    var where = cell.closest('table').id + ' row ' + cell.parentElement.rowIndex + ' col ' + cell.cellIndex + ' "' + cell.textContent + '"';
    if (cell.scrollWidth > cell.clientWidth + 1) {
      cut.push(where + ': text ' + cell.scrollWidth + 'px in a cell of ' + cell.clientWidth + 'px');
    }
    if (r.right > viewport + 0.5) {
      cut.push(where + ': right edge ' + r.right + ' past the window ' + viewport);
    }
    for (var a = cell.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      var s = getComputedStyle(a);
      if (s.overflowX === 'visible') continue;
      var ar = a.getBoundingClientRect();
      var right = ar.left + a.clientLeft + a.clientWidth;
      if (r.right > right + 0.5 || r.left < ar.left + a.clientLeft - 0.5) {
        cut.push(where + ': [' + r.left + ', ' + r.right + '] outside the visible [' + ar.left + ', ' + right + '] of ' +
          a.tagName + '.' + a.className + ' (overflow-x ' + s.overflowX + ')');
      }
    }
  });
  document.getElementById('clip-check').textContent = JSON.stringify({cells: document.querySelectorAll('.op td').length, cut: cut});
})();
</script>`

var clipResult = regexp.MustCompile(`(?s)<pre id="clip-check">(.*?)</pre>`)

// The operations' tables are never cut: at every width from 1,024 px the
// per-operation layout gives the table the width its figures need and
// wraps the charts below it when both do not fit side by side, so every
// cell of a two-run report of wide figures shows whole.
func TestOperationTablesNeverCut(t *testing.T) {
	bin := browser.Require(t)
	page := render(t, bigRuns())
	end := strings.LastIndex(page, "</body>") // the embedded ECharts has one of its own
	path := writePage(t, page[:end]+clipCheck+"\n"+page[end:])
	for _, width := range []int{1024, 1200, 1400, 1920} {
		dom, err := browser.DOMAt(context.Background(), bin, path, width, 1200)
		if err != nil {
			t.Fatal(err)
		}
		m := clipResult.FindStringSubmatch(dom)
		if m == nil || strings.TrimSpace(m[1]) == "" {
			t.Fatalf("%d px: the clip check did not run", width)
		}
		var got struct {
			Cells int
			Cut   []string
		}
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &got); err != nil {
			t.Fatal(err)
		}
		if got.Cells == 0 {
			t.Fatalf("%d px: no cells of the operations' tables measured", width)
		}
		for _, c := range got.Cut {
			t.Errorf("%d px: %s", width, c)
		}
		if out := os.Getenv("TSBENCH_ARTIFACTS"); out != "" {
			png := filepath.Join(out, fmt.Sprintf("htmlreport-operations-%d.png", width))
			if err := browser.Screenshot(context.Background(), bin, path, png, width, 2600); err != nil {
				t.Error(err)
			}
		}
	}
}
