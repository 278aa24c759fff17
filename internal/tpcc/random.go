package tpcc

import (
	"math/rand/v2"
	"strconv"
)

// random draws the values of clause 4.3.2 and 2.1.6.
type random struct {
	r *rand.Rand
	c constants
}

// constants are the C values of NURand (clause 2.1.6).
type constants struct {
	Last, ID, Item int
}

// loadConstants draws the C values used by the loader.
func loadConstants(seed int64) constants {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7c))
	return constants{Last: r.IntN(maxCLast + 1), ID: r.IntN(maxCID + 1), Item: r.IntN(maxCItem + 1)}
}

// runConstants derives the run's C values from the load's. For C_LAST the
// distance |C_Run - C_Load| must lie in [65, 119] and not be 96 or 112
// (clause 2.1.6.1), so that a run does not draw exactly the load's names;
// C_Run is drawn uniformly from the values in [0, 255] at such a distance.
// (Adding a delta modulo 256 is not enough: a wrap-around leaves a
// distance of 256 - delta, which breaks the rule for about a third of the
// loads.) For C_ID and OL_I_ID the specification lets the run use any
// value in [0, A], so they are drawn afresh in that range.
func runConstants(load constants, seed int64) constants {
	r := rand.New(rand.NewPCG(uint64(seed), 0x7d))
	var allowed []int
	for c := 0; c <= maxCLast; c++ {
		if validCLastDelta(c - load.Last) {
			allowed = append(allowed, c)
		}
	}
	return constants{Last: allowed[r.IntN(len(allowed))], ID: r.IntN(maxCID + 1), Item: r.IntN(maxCItem + 1)}
}

// The A of NURand for C_LAST, C_ID and OL_I_ID: C lies in [0, A]
// (clause 2.1.6).
const (
	maxCLast = 255
	maxCID   = 1023
	maxCItem = 8191
)

// validCLastDelta reports whether C_Run - C_Load = delta obeys clause
// 2.1.6.1.
func validCLastDelta(delta int) bool {
	if delta < 0 {
		delta = -delta
	}
	return delta >= 65 && delta <= 119 && delta != 96 && delta != 112
}

func newRandom(seed, stream int64, c constants) *random {
	return &random{r: rand.New(rand.NewPCG(uint64(seed), uint64(stream))), c: c}
}

// intn returns a uniform integer in [lo, hi].
func (g *random) intn(lo, hi int) int { return lo + g.r.IntN(hi-lo+1) }

// nuRand is NURand(A, x, y) of clause 2.1.6.
func (g *random) nuRand(a, c, x, y int) int {
	return ((g.intn(0, a)|g.intn(x, y))+c)%(y-x+1) + x
}

func (g *random) customerID() int { return g.nuRand(maxCID, g.c.ID, 1, customersPerD) }
func (g *random) itemID() int     { return g.nuRand(maxCItem, g.c.Item, 1, items) }
func (g *random) lastNameNumber() int {
	return g.nuRand(maxCLast, g.c.Last, 0, lastNameSyllables-1)
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// aString is a random alphanumeric string of length in [lo, hi].
func (g *random) aString(lo, hi int) string {
	b := make([]byte, g.intn(lo, hi))
	for i := range b {
		b[i] = alnum[g.r.IntN(len(alnum))]
	}
	return string(b)
}

// nString is a random numeric string of length in [lo, hi].
func (g *random) nString(lo, hi int) string {
	b := make([]byte, g.intn(lo, hi))
	for i := range b {
		b[i] = byte('0' + g.r.IntN(10))
	}
	return string(b)
}

// data is I_DATA or S_DATA: 10 % contain "ORIGINAL" at a random place.
func (g *random) data() string {
	s := g.aString(26, 50)
	if g.r.IntN(10) == 0 {
		at := g.r.IntN(len(s) - 8 + 1)
		s = s[:at] + "ORIGINAL" + s[at+8:]
	}
	return s
}

func (g *random) zip() string { return g.nString(4, 4) + "11111" }

func (g *random) state() string {
	return string([]byte{byte('A' + g.r.IntN(26)), byte('A' + g.r.IntN(26))})
}

var syllables = [10]string{"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"}

// lastName is C_LAST for a number in [0, 999] (clause 4.3.2.3).
func lastName(n int) string {
	return syllables[n/100] + syllables[n/10%10] + syllables[n%10]
}

// cents formats an amount in cents as a DECIMAL literal, exact in every
// driver (a float could round).
func cents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	frac := strconv.FormatInt(c%100, 10)
	if len(frac) == 1 {
		frac = "0" + frac
	}
	return sign + strconv.FormatInt(c/100, 10) + "." + frac
}

// fraction formats n/10000 as DECIMAL(4,4) text (taxes and discounts).
func fraction(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 4 {
		s = "0" + s
	}
	return "0." + s
}
