package mysql

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// ownData sets up targettest.OwnData (s_1 TEXT holding targettest.Texts)
// in database tsbench_own of the MariaDB server srv.
func ownData(t *testing.T, srv targettest.Server) *Target {
	return srv.OwnTexts(t.Context(), t, Driver, "tsbench_own", targettest.Texts).(*Target)
}

// hostile are targettest.Hostile and values of this language's own.
var hostile = targettest.HostileAnd("`points`")

// A statement with bound parameters answers exactly the points written,
// in Rows' normal form: times as BIGINT Unix milliseconds, doubles as
// float64, text as string; on both releases.
func TestRunStatement(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		targettest.PointsAnswers(t.Context(), t, ownData(t, srv), language, targettest.Texts)
	})
}

// A hostile text parameter, bound or written by Literal, is one value the
// comparison does not match: the statement succeeds with no rows and the
// data is all still there.
func TestRunStatementHostile(t *testing.T) {
	targettest.EachServer(t, releases, func(t *testing.T, srv targettest.Server) {
		targettest.PointsHostile(t.Context(), t, ownData(t, srv), language, hostile)
	})
}

// Literal and Ident write any value as one MySQL literal or identifier.
func TestLiteralIdent(t *testing.T) {
	targettest.Language{Name: "sql", Bind: "?", Literals: targettest.Literals{
		{int64(-42), "-42"},
		{1.5, "1.5"},
		{1e21, "1e+21"},
		{"plain", "'plain'"},
		{"it's", "'it''s'"},
		{`trailing\`, `'trailing\\'`},
		{`\' OR 1=1 -- `, `'\\'' OR 1=1 -- '`},
		{"new\nline", "'new\nline'"},
		{"", "''"},
	}, Idents: targettest.Idents{
		{"points", "`points`"},
		{"a`b", "`a``b`"},
		{`a"b`, "`a\"b`"},
	}}.Check(t, Driver, language)
}
