package gen

// Mix is the splitmix64 finaliser: a fast, well-distributed 64-bit hash. All
// randomness in this package (and in internal/promshape) is Mix applied to
// indexes, never shared state.
func Mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

const golden = 0x9e3779b97f4a7c15

// Stream is the k-th value of the splitmix64 sequence seeded by key: one mix
// per value, which is what the per-point hot loops use.
func Stream(key uint64, k int64) uint64 { return Mix(key + uint64(k)*golden) }

// Hash2 combines two values into one hash.
func Hash2(a, b uint64) uint64 { return Mix(a ^ Mix(b+golden)) }

// unit maps a hash to [0, 1).
func unit(h uint64) float64 { return float64(h>>11) * (1.0 / (1 << 53)) }

// signed maps a hash to [-1, 1) with one conversion and one multiply.
func signed(h uint64) float64 { return float64(int64(h)) * (1.0 / (1 << 63)) }
