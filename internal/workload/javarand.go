package workload

// javaRandom is the linear congruential generator of java.util.Random, whose
// sequence the Java documentation fixes for every seed. IoT-benchmark draws
// each client's next operation from one, seeded with the client's index
// (OperationController); drawing from the same generator gives a client the
// very operations it runs in IoT-benchmark.
type javaRandom struct{ seed int64 }

const (
	javaMultiplier = 0x5DEECE66D
	javaAddend     = 0xB
	javaMask       = 1<<48 - 1
)

func newJavaRandom(seed int64) *javaRandom {
	return &javaRandom{seed: (seed ^ javaMultiplier) & javaMask}
}

// next returns the next bits-bit value (bits <= 32), as Random.next does.
func (r *javaRandom) next(bits uint) int64 {
	r.seed = (r.seed*javaMultiplier + javaAddend) & javaMask
	return int64(int32(r.seed >> (48 - bits)))
}

// nextDouble is Random.nextDouble: 53 random bits scaled into [0, 1).
func (r *javaRandom) nextDouble() float64 {
	return float64(r.next(26)<<27+r.next(27)) / (1 << 53)
}

// nextInt is Random.nextInt(bound): uniform in [0, bound), rejecting the
// draws that would bias it, with Java's int arithmetic (it wraps).
func (r *javaRandom) nextInt(bound int32) int32 {
	v := int32(r.next(31))
	m := bound - 1
	if bound&m == 0 { // a power of two: the high bits
		return int32((int64(bound) * int64(v)) >> 31)
	}
	for u := v; ; u = int32(r.next(31)) {
		v = u % bound
		if u-v+m >= 0 {
			return v
		}
	}
}
