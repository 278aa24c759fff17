package opentsdb

import (
	"slices"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/ts"
)

// ownData sets up targettest.OwnData: metrics tsbench_own.s_0 (doubles)
// and tsbench_own.s_1 (integers), devices d_0 and d_1 (tag device); s_1
// holds 100*d+k for device d and row k.
//
// The first test to ask writes the points; the later ones read the same
// points on a connection bound without a reset (ownWritten). A reset
// right after a write races with the TSD in the background: its deletes
// are applied after it answers, and its compaction of a row queued by the
// earlier write may run after the reset and delete the cells written anew
// (CI saw half of the points gone after a reset and a fresh write).
func ownData(t *testing.T) *Target {
	t.Helper()
	opentsdbServer.Require(t)
	o := targets.Options{Database: "tsbench_own"}
	if ownWritten {
		s := targettest.OwnSchema(o.Database, targettest.OwnStart.UnixMilli(), ts.Double, ts.Int64)
		return targettest.OpenSetUp(t.Context(), t, Driver, o, s, false).(*Target)
	}
	tg := targettest.OwnData(t.Context(), t, Driver, o, ts.Int64, func(d int, k int64) any { return int64(100*d) + k }).(*Target)
	ownWritten = true
	return tg
}

// ownWritten is whether a test of this run wrote ownData's points.
var ownWritten bool

// hostile are targettest.Hostile and values of this language's own: *
// and | are OpenTSDB's (every tag value, and an alternation).
var hostile = targettest.HostileAnd(`"}}],"queries":[{"aggregator":"none","metric":"tsbench_own.s_0"}]}`, "*", "d_0|d_1", "d_*")

// render writes each value into text at its {}, and each
// targettest.Ident at its {ident} (targettest.Render).
func render(text string, vals ...any) string { return targettest.Render(language, text, vals...) }

// The points of one metric and device in a window come back as rows
// [t, value], t in milliseconds whether the body asks for milliseconds or
// not.
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	start := targettest.OwnStart
	t0 := start.UnixMilli()
	for _, ms := range []string{`"msResolution": true,`, ""} {
		query := `{"start": {}, "end": {}, ` + ms + `
			"queries": [{"aggregator": "none", "metric": {ident}, "tags": {"device": {}}}]}`
		targettest.Answer{
			Text:    render(query, language.Time(start.Add(time.Second)), language.Time(start.Add(time.Hour)), targettest.Ident("tsbench_own.s_0"), "d_1"),
			Columns: []string{"t", "value"}, Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}},
		}.Check(ctx, t, tg)
	}
	// Integers come back as int64; a sum over both devices per timestamp.
	targettest.Answer{Text: render(`{"start": {}, "end": {}, "msResolution": true,
		"queries": [{"aggregator": "sum", "metric": {ident}}]}`, t0, t0+5000, targettest.Ident("tsbench_own.s_1")),
		Columns: []string{"t", "value"}, Values: [][]any{{t0, int64(100)}, {t0 + 1000, int64(102)}, {t0 + 2000, int64(104)}},
	}.Check(ctx, t, tg)
	// A body the server refuses is an error.
	targettest.Refused(ctx, t, tg, time.Time{}, `{"queries": [{"aggregator": "none", "metric": "tsbench_own.s_0"}]}`)
}

// A hostile text written by Literal, as a metric name or a tag filter
// value, is one JSON string naming nothing: the query succeeds with no
// rows (* and | do not widen the filter), and the data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	t0 := targettest.OwnStart.UnixMilli()
	const byName = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": {}}]}`
	const byTag = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0", "tags": {"device": {}}}]}`
	const byFilter = `{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0",
		"filters": [{"type": "literal_or", "tagk": "device", "filter": {}, "groupBy": true}]}]}`
	for _, h := range hostile {
		for _, q := range []string{byName, byTag, byFilter} {
			targettest.Answer{Text: render(q, t0, t0+5000, h)}.Check(ctx, t, tg)
		}
	}
	got := targettest.RunOwn(ctx, t, tg, render(`{"start": {}, "end": {}, "queries": [{"aggregator": "none", "metric": "tsbench_own.s_0", "tags": {"device": "*"}},
		{"aggregator": "none", "metric": "tsbench_own.s_1", "tags": {"device": "*"}}]}`, t0, t0+5000))
	if got.Count != 12 {
		t.Errorf("points after the hostile statements: %d, want 12", got.Count)
	}
}

// Literal and Ident write JSON: strings escaped and quoted, with * and |
// as spaces; numbers as they are.
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "opentsdb", Bind: "", Literals: slices.Concat(targettest.JSONLiterals, targettest.Literals{
		{"d_0", `"d_0"`},
		{"*", `" "`},
		{"d_0|d_1", `"d_0 d_1"`},
	}), Idents: targettest.Idents{{"tsbench.s_0", `"tsbench.s_0"`}}}.Check(t, Driver, language)
}
