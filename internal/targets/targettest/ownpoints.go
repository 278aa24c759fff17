package targettest

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
)

// The statement tests of the targets that keep sqlfamily's layout (a
// points table of series, t, v and s; a series table of its device and
// sensor), on OwnData's dataset with s_1 TEXT.

// bound writes text's ? as lang's placeholders: ? where it binds with ?,
// $1, $2, ... where it numbers them.
func bound(lang *targets.Language, text string) string {
	if lang.Bind != "$" {
		return text
	}
	var b strings.Builder
	for n := 1; ; n++ {
		i := strings.IndexByte(text, '?')
		if i < 0 {
			return b.String() + text
		}
		b.WriteString(text[:i] + "$" + strconv.Itoa(n))
		text = text[i+1:]
	}
}

// PointsAnswers checks that statements with bound parameters answer
// exactly the points written (texts: s_1's), in Rows' normal form: times
// as BIGINT Unix milliseconds, doubles as float64, text as string; that a
// bound text holding a quote or a backslash finds its point; and that an
// EXPLAIN answers rows.
func PointsAnswers(ctx context.Context, t *testing.T, r targets.StatementRunner, lang *targets.Language, texts [2][3]string) {
	t.Helper()
	t0 := OwnStart.UnixMilli()
	Answers(ctx, t, r, Answer{Text: bound(lang, `SELECT p.t, p.v FROM points p JOIN series s ON s.id = p.series
		WHERE s.device = ? AND s.sensor = ? AND p.t >= ? ORDER BY p.t`),
		Args:    []any{"d_1", "s_0", lang.Time(OwnStart.Add(time.Second))},
		Columns: []string{"t", "v"}, Values: [][]any{{t0 + 1000, 21.25}, {t0 + 2000, 22.25}},
	}, Answer{Text: bound(lang, `SELECT s.device, p.s, p.v FROM points p JOIN series s ON s.id = p.series
		WHERE s.sensor = ? AND p.t = ? ORDER BY s.device`), Args: []any{"s_1", t0},
		Columns: []string{"device", "s", "v"}, Values: [][]any{{"d_0", texts[0][0], nil}, {"d_1", texts[1][0], nil}},
	})
	for k, text := range texts[0] {
		Answer{Text: bound(lang, "SELECT t, COUNT(*) AS n FROM points WHERE s = ? GROUP BY t"), Args: []any{text},
			Values: [][]any{{t0 + int64(k)*1000, int64(1)}}}.Check(ctx, t, r)
	}
	if got := RunOwn(ctx, t, r, lang.Explain(bound(lang, "SELECT v FROM points WHERE t >= ?")), t0); got.Count == 0 {
		t.Errorf("EXPLAIN answered no rows")
	}
}

// PointsHostile checks that each of hostile, bound or written by
// lang.Literal, is one value the comparison does not match: the statement
// succeeds with no rows, the value comes back as itself either way, and
// the data (12 points) is all still there.
func PointsHostile(ctx context.Context, t *testing.T, r targets.StatementRunner, lang *targets.Language, hostile []string) {
	t.Helper()
	const text = "SELECT p.t, p.v FROM points p JOIN series s ON s.id = p.series WHERE s.device = "
	for _, h := range hostile {
		Answers(ctx, t, r,
			Answer{Text: bound(lang, text+"?"), Args: []any{h}},
			Answer{Text: text + lang.Literal(h)},
			Answer{Text: bound(lang, "SELECT ? AS x, ") + lang.Literal(h) + " AS y", Args: []any{h}, Values: [][]any{{h, h}}})
	}
	Answer{Text: "SELECT COUNT(*) FROM points", Values: [][]any{{int64(12)}}}.Check(ctx, t, r)
}
