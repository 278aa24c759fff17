package targets

// Number reads a value a database driver returned for a result column as a
// number: integers and floats as they are, booleans as 0 and 1, text (any
// other type) as 0; ok is false for NULL (a nil value), which is no point.
// Several targets scan untyped result rows; this is the one reading of them.
func Number(v any) (x float64, ok bool) {
	switch x := v.(type) {
	case nil:
		return 0, false
	case bool:
		if x {
			return 1, true
		}
		return 0, true
	case int16:
		return float64(x), true
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, true // text
}
