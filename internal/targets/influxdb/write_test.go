package influxdb

import "testing"

func TestLiteral(t *testing.T) {
	if got := literal(`O'Brien`); got != `'O\'Brien'` {
		t.Errorf("literal = %s", got)
	}
}
