package dollarparams

import "testing"

// Each ? is numbered in order, the text around it kept as it is (multi-byte
// characters too); a statement without any comes back unchanged.
func TestNumber(t *testing.T) {
	q := "SELECT 'é' FROM t WHERE x = ? AND y IN (?,?)"
	if got, want := Number(q), "SELECT 'é' FROM t WHERE x = $1 AND y IN ($2,$3)"; got != want {
		t.Errorf("Number(%q) = %q, want %q", q, got, want)
	}
	if q := "SELECT count(*) FROM t"; Number(q) != q {
		t.Errorf("Number(%q) = %q, want it unchanged", q, Number(q))
	}
}
