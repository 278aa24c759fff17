package kairosdb

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// ownData sets up targettest.OwnData: metrics tsbench_own.s_0 (doubles)
// and tsbench_own.s_1 (strings, targettest.Texts), devices d_0 and d_1
// (tag device).
func ownData(t *testing.T) *Target {
	return server.OwnTexts(t.Context(), t, Driver, "tsbench_own", targettest.Texts).(*Target)
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd(`"]}],"metrics":[{"name":"tsbench_own.s_0"}]}`, "</script>")

// render writes each value into text at its {}, and each
// targettest.Ident at its {ident} (targettest.Render).
func render(text string, vals ...any) string { return targettest.Render(language, text, vals...) }

// The points of one metric and device in a window, and its string points,
// come back as rows [t, value].
func TestRunStatement(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	const query = `{"start_absolute": {}, "end_absolute": {},
		"metrics": [{"name": {ident}, "tags": {"device": [{}]}}]}`
	start := targettest.OwnStart
	t0 := start.UnixMilli()
	targettest.Answers(ctx, t, tg, targettest.Answer{
		Text:    render(query, language.Time(start.Add(time.Second)), language.Time(start.Add(time.Hour)), targettest.Ident("tsbench_own.s_0"), "d_1"),
		Columns: []string{"t", "value"}, Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}},
	}, targettest.Answer{
		Text:    render(query, t0, t0+5000, targettest.Ident("tsbench_own.s_1"), "d_0"),
		Columns: []string{"t", "value"}, Values: [][]any{{t0, "a0"}, {t0 + 1000, "it's"}, {t0 + 2000, `back\slash`}},
	}, targettest.Answer{ // An aggregator's longs come back as int64.
		Text: render(`{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": {ident},
		"aggregators": [{"name": "count", "sampling": {"value": 1, "unit": "hours"}, "align_start_time": true}]}]}`,
			t0, t0+5000, targettest.Ident("tsbench_own.s_0")),
		Values: [][]any{{t0, int64(6)}},
	})
	// A body the server refuses is an error.
	if _, err := tg.RunStatement(ctx, &targets.Statement{Text: `{"metrics": [{"name": "tsbench_own.s_0"}]}`}); err == nil {
		t.Error("a query without a start was accepted")
	}
}

// A hostile text written by Literal, as a metric name or a tag filter
// value, is one JSON string that matches nothing: the query succeeds with
// no rows. A tag filter with a single quote is refused before it is sent
// (the H2 datastore would paste it into SQL). The data is all still there.
func TestRunStatementHostile(t *testing.T) {
	ctx := t.Context()
	tg := ownData(t)
	t0 := targettest.OwnStart.UnixMilli()
	const byName = `{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": {}}]}`
	const byTag = `{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": "tsbench_own.s_0", "tags": {"device": [{}]}}]}`
	for _, h := range hostile {
		targettest.Answer{Text: render(byName, t0, t0+5000, h)}.Check(ctx, t, tg)
		text := render(byTag, t0, t0+5000, h)
		got, err := tg.RunStatement(ctx, &targets.Statement{Text: text})
		switch {
		case strings.Contains(h, "'"):
			if !errors.Is(err, targets.ErrUnsupported) || !strings.Contains(err.Error(), "H2") {
				t.Errorf("tag %s: error %v, want the H2 datastore's refusal", language.Literal(h), err)
			}
		case err != nil:
			t.Errorf("tag %s: %v", language.Literal(h), err)
		case got.Count != 0:
			t.Errorf("tag %s: got %v, want no rows", language.Literal(h), got.Values)
		}
	}
	got := targettest.RunOwn(ctx, t, tg, render(`{"start_absolute": {}, "end_absolute": {}, "metrics": [{"name": "tsbench_own.s_0"}, {"name": "tsbench_own.s_1"}]}`,
		t0, t0+5000))
	if got.Count != 12 {
		t.Errorf("points after the hostile statements: %d, want 12", got.Count)
	}
}

// Literal and Ident write JSON: strings escaped and quoted, numbers as
// they are, and every text read back as itself.
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "kairosdb", Bind: "", Literals: targettest.JSONLiterals, Idents: targettest.Idents{{`tsbench."s_0"`, `"tsbench.\"s_0\""`}}}.Check(t, Driver, language)
	for _, h := range hostile {
		v, err := jsonValue([]byte(language.Literal(h)))
		if err != nil || v != h {
			t.Errorf("%q reads back as %q (%v)", h, v, err)
		}
	}
}
