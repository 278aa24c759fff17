package tpcc

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestNURandStaysInRange(t *testing.T) {
	g := newRandom(1, 1, loadConstants(1))
	for i := 0; i < 100_000; i++ {
		if c := g.customerID(); c < 1 || c > customersPerD {
			t.Fatalf("customer id %d out of [1, %d]", c, customersPerD)
		}
		if it := g.itemID(); it < 1 || it > items {
			t.Fatalf("item id %d out of [1, %d]", it, items)
		}
		if n := g.lastNameNumber(); n < 0 || n > 999 {
			t.Fatalf("last name number %d out of [0, 999]", n)
		}
	}
}

// NURand is non-uniform: the most drawn customer id is drawn far more often
// than a uniform draw would give it.
func TestNURandIsSkewed(t *testing.T) {
	g := newRandom(2, 2, loadConstants(2))
	counts := map[int]int{}
	const n = 300_000
	for i := 0; i < n; i++ {
		counts[g.customerID()]++
	}
	top := 0
	for _, c := range counts {
		top = max(top, c)
	}
	if uniform := n / customersPerD; top < 3*uniform {
		t.Errorf("most frequent customer drawn %d times, a uniform draw gives %d: not skewed", top, uniform)
	}
}

// cLastRule is clause 2.1.6.1's rule for C_LAST, written out here apart
// from validCLastDelta so that a mistake there cannot hide one in
// runConstants.
func cLastRule(load, run int) bool {
	d := run - load
	if d < 0 {
		d = -d
	}
	return run >= 0 && run <= 255 && d >= 65 && d <= 119 && d != 96 && d != 112
}

// runConstantsMod256 is the formula tsbench used before issue 41: the
// load's C plus an allowed delta, modulo 256. Kept to show that
// TestRunConstantsFollowClause2161 catches it.
func runConstantsMod256(load constants, seed int64) constants {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7d))
	var delta int
	for {
		delta = 65 + r.IntN(55)
		if delta != 96 && delta != 112 {
			break
		}
	}
	return constants{Last: (load.Last + delta) % 256, ID: r.IntN(1024), Item: r.IntN(8192)}
}

// cLastViolations counts the seeds in [0, n) for which derive breaks
// clause 2.1.6.1, failing at once on a constant out of its range [0, A].
func cLastViolations(t *testing.T, derive func(constants, int64) constants, n int64) int64 {
	t.Helper()
	var bad int64
	for seed := int64(0); seed < n; seed++ {
		l := loadConstants(seed)
		r := derive(l, seed)
		if r.ID < 0 || r.ID > 1023 || r.Item < 0 || r.Item > 8191 {
			t.Fatalf("seed %d: C_ID %d or C for OL_I_ID %d out of [0, 1023] / [0, 8191]", seed, r.ID, r.Item)
		}
		if !cLastRule(l.Last, r.Last) {
			bad++
		}
	}
	return bad
}

// The run's C for C_LAST keeps 65 <= |C_Run - C_Load| <= 119, not 96 or
// 112, for every seed; the old modulo-256 formula breaks it for about a
// third of them (a wrap-around makes the distance 256 - delta).
func TestRunConstantsFollowClause2161(t *testing.T) {
	const seeds = 100_000
	for _, c := range []struct {
		name    string
		derive  func(constants, int64) constants
		wantBad bool
	}{
		{"runConstants", runConstants, false},
		{"old (C_Load + delta) mod 256", runConstantsMod256, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := cLastViolations(t, c.derive, seeds)
			t.Logf("%d of %d seeds break clause 2.1.6.1 (%.1f %%)", bad, seeds, 100*float64(bad)/seeds)
			if gotBad := bad > 0; gotBad != c.wantBad {
				t.Errorf("%d of %d seeds break clause 2.1.6.1; want violations: %v", bad, seeds, c.wantBad)
			}
		})
	}
}

// Every load constant in [0, 255] gets a valid run constant, the edges
// (where only one sign of the delta fits) included.
func TestRunConstantsEveryLoadValue(t *testing.T) {
	for load := 0; load <= 255; load++ {
		for seed := int64(0); seed < 20; seed++ {
			if r := runConstants(constants{Last: load}, seed); !cLastRule(load, r.Last) {
				t.Fatalf("C_Load %d seed %d: C_Run %d breaks clause 2.1.6.1", load, seed, r.Last)
			}
		}
	}
}

func TestValidCLastDelta(t *testing.T) {
	for _, c := range []struct {
		delta int
		want  bool
	}{
		{0, false}, {64, false}, {65, true}, {-65, true}, {95, true}, {96, false}, {-96, false},
		{97, true}, {111, true}, {112, false}, {-112, false}, {119, true}, {-119, true}, {120, false}, {-120, false},
		{191, false}, // 256 - 65: the distance a wrap-around leaves
	} {
		if got := validCLastDelta(c.delta); got != c.want {
			t.Errorf("validCLastDelta(%d) = %v, want %v", c.delta, got, c.want)
		}
	}
}

func TestLastName(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "BARBARBAR"}, {371, "PRICALLYOUGHT"}, {999, "EINGEINGEING"}} {
		if got := lastName(c.n); got != c.want {
			t.Errorf("lastName(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestCentsRoundTrip(t *testing.T) {
	for _, c := range []int64{0, 1, 9, 10, 99, 100, 12345, -1000, 30_000_000} {
		got, err := parseCents(cents(c))
		if err != nil || got != c {
			t.Errorf("parseCents(cents(%d)) = %d, %v", c, got, err)
		}
	}
	for _, c := range []struct {
		in   string
		want int64
	}{{"12.5", 1250}, {"12", 1200}, {"0.0100", 1}, {"-10.00", -1000}} {
		if got, err := parseCents(c.in); err != nil || got != c.want {
			t.Errorf("parseCents(%q) = %d, %v; want %d", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"1.234", "abc", "1..2"} {
		if _, err := parseCents(bad); err == nil {
			t.Errorf("parseCents(%q): no error", bad)
		}
	}
}

func TestFraction(t *testing.T) {
	for n, want := range map[int]string{0: "0.0000", 7: "0.0007", 2000: "0.2000", 5000: "0.5000"} {
		if got := fraction(n); got != want {
			t.Errorf("fraction(%d) = %q, want %q", n, got, want)
		}
	}
}

// Every 100 draws of a terminal's deck are exactly the mix.
func TestDeckFollowsTheMix(t *testing.T) {
	w := worker{t: &terminal{g: newRandom(3, 3, constants{})}}
	for deck := 0; deck < 5; deck++ {
		var got [NumTx]int
		for i := 0; i < 100; i++ {
			got[w.nextTx()]++
		}
		if got != Mix {
			t.Fatalf("deck %d drew %v, want %v", deck, got, Mix)
		}
	}
}

func TestThinkTimeCapped(t *testing.T) {
	g := newRandom(4, 4, constants{})
	var sum time.Duration
	const n = 20_000
	for i := 0; i < n; i++ {
		d := thinkTime(g, 12*time.Second)
		if d < 0 || d > 120*time.Second {
			t.Fatalf("think time %v outside [0, 10 x mean]", d)
		}
		sum += d
	}
	if mean := sum / n; mean < 11*time.Second || mean > 13*time.Second {
		t.Errorf("mean think time %v, want about 12s", mean)
	}
}

func TestRebind(t *testing.T) {
	pg, _ := dialectOf("postgres")
	my, _ := dialectOf("mysql")
	q := "SELECT a FROM t WHERE x = ? AND y = ?"
	if got, want := pg.rebind(q), "SELECT a FROM t WHERE x = $1 AND y = $2"; got != want {
		t.Errorf("postgres rebind = %q, want %q", got, want)
	}
	if got := my.rebind(q); got != q {
		t.Errorf("mysql rebind changed the statement: %q", got)
	}
	if _, err := dialectOf("sqlite"); err == nil {
		t.Error("dialectOf(sqlite): no error")
	}
}

func TestValidate(t *testing.T) {
	ok := Config{Warehouses: 1, Terminals: 1, Duration: time.Second, Load: LoadAuto}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		mutate func(*Config)
		key    string
	}{
		{func(c *Config) { c.Warehouses = 0 }, "TPCC_WAREHOUSES"},
		{func(c *Config) { c.Terminals = 0 }, "CLIENT_NUMBER"},
		{func(c *Config) { c.Duration = 0 }, "duration"},
		{func(c *Config) { c.Load = "sometimes" }, "TPCC_LOAD"},
	} {
		cfg := ok
		c.mutate(&cfg)
		if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("Validate() = %v, want an error naming %s", err, c.key)
		}
	}
}
