package report

import (
	"testing"
	"time"
)

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 999: "999 B", 1000: "1.0 kB", 45_200_000: "45.2 MB", 999_960: "1.0 MB",
		3_500_000_000: "3.5 GB", -2048: "-2.0 kB",
	} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", 987.4: "987", 12345: "12.3K", 1234567: "1.23M", 5.5e9: "5.50G",
	} {
		if got := Compact(v); got != want {
			t.Errorf("Compact(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 1499 * time.Millisecond: "1s", 65 * time.Second: "1m05s",
		3723 * time.Second: "1h02m03s", -time.Second: "0s",
	} {
		if got := ShortDuration(d); got != want {
			t.Errorf("ShortDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestOneLine(t *testing.T) {
	if got := oneLine("a\n\tb   c", 100); got != "a b c" {
		t.Errorf("oneLine = %q", got)
	}
	if got := oneLine("abcdefghij", 6); got != "abc..." {
		t.Errorf("oneLine cut = %q", got)
	}
}

func TestGroupThousands(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "999": "999", "1000": "1,000", "-1234567.50": "-1,234,567.50", "123456.7": "123,456.7", "-12": "-12",
	} {
		if got := GroupThousands(in); got != want {
			t.Errorf("GroupThousands(%q) = %q, want %q", in, got, want)
		}
	}
}

// javaF2 rounds as Java's String.format("%.2f") does: the values and
// answers are Java 17's own (HALF_UP on the shortest decimal of the value).
func TestJavaF2(t *testing.T) {
	for v, want := range map[float64]string{
		0.125: "0.13", 0.375: "0.38", 2.625: "2.63", -0.125: "-0.13", // exact ties: up, away from zero
		2.675: "2.68", 1.005: "1.01", 0.115: "0.12", -2.675: "-2.68", 0.005: "0.01", 9.995: "10.00", // ties in decimal
		-0.001: "-0.00", 1e-7: "0.00", 0.994999: "0.99", 1234.5: "1234.50", 1e20: "100000000000000000000.00",
		0: "0.00", 175260.544: "175260.54", 55934.345: "55934.35", 1e9: "1000000000.00", 123456789.125: "123456789.13",
	} {
		if got := javaF2(v); got != want {
			t.Errorf("javaF2(%v) = %s, want %s", v, got, want)
		}
	}
}
