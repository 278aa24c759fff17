// Package gen generates benchmark data deterministically: every value is a
// pure function of the data seed, the device index, the sensor index and the
// row index, so any batch can be recomputed anywhere — by another worker
// machine, by a verifier, or by a test that checks what a database returned.
//
// Row k of every device is at StartTime + k*PointStep. Out-of-order delivery
// only changes which rows a batch carries (a bijection on row indexes within
// a window), never a timestamp, so no two points of a series ever collide.
//
// Value models (chosen per sensor by the *_RATIO weights): LINE (sawtooth),
// SIN, SQUARE, RANDOM, CONSTANT (piecewise constant: a level held for a long,
// random run of rows) and WALK (a random walk). Every model but CONSTANT adds
// hashed noise, and the hash input is the row index itself, so no series has a
// period: IoT-benchmark reuses a 100-value buffer, which flatters compression.
package gen
