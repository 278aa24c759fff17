package dollarparams

import "testing"

func TestNumber(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT a FROM t WHERE x = ? AND y = ?":  "SELECT a FROM t WHERE x = $1 AND y = $2",
		"INSERT INTO t (a, b, c) VALUES (?,?,?)": "INSERT INTO t (a, b, c) VALUES ($1,$2,$3)",
		"SELECT count(*) FROM t":                 "SELECT count(*) FROM t",
		"SELECT 'é' FROM t WHERE x = ?":          "SELECT 'é' FROM t WHERE x = $1",
	} {
		if got := Number(q); got != want {
			t.Errorf("Number(%q) = %q, want %q", q, got, want)
		}
	}
}
