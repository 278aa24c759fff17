package promshape

// The hashes of internal/gen (unexported there): all randomness here is a
// hash of indexes, never shared state, so no value depends on the order
// things were computed in.

// mix is the splitmix64 finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

const golden = 0x9e3779b97f4a7c15

// stream is the k-th value of the splitmix64 sequence seeded by key.
func stream(key uint64, k int64) uint64 { return mix(key + uint64(k)*golden) }

// hash2 combines two values into one hash.
func hash2(a, b uint64) uint64 { return mix(a ^ mix(b+golden)) }
