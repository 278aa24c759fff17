package ts

import (
	"fmt"
	"strings"
)

// DataType is the type of one sensor's values. The order matches IoT-benchmark's
// INSERT_DATATYPE_PROPORTION (BOOLEAN:INT32:INT64:FLOAT:DOUBLE:TEXT).
type DataType uint8

const (
	Boolean DataType = iota
	Int32
	Int64
	Float
	Double
	Text
)

// DataTypes lists every type in proportion order.
var DataTypes = []DataType{Boolean, Int32, Int64, Float, Double, Text}

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE", "TEXT"}

func (t DataType) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("DataType(%d)", t)
}

// Numeric reports whether values of t can be compared with a number and
// summed: value filters and sum/avg/min/max apply only to numeric sensors.
func (t DataType) Numeric() bool { return t >= Int32 && t <= Double }

// Width is the size in bytes of a value of a fixed-size type in binary
// (a boolean a byte, INT32 and FLOAT four, the rest eight); Text has no
// fixed size and answers 8, which callers that store text never ask.
func (t DataType) Width() int {
	switch t {
	case Boolean:
		return 1
	case Int32, Float:
		return 4
	}
	return 8
}

// ParseDataType accepts a type name in any case.
func ParseDataType(s string) (DataType, error) {
	for i, n := range typeNames {
		if strings.EqualFold(s, n) {
			return DataType(i), nil
		}
	}
	return 0, fmt.Errorf("unknown data type %q (allowed: %s)", s, strings.Join(typeNames[:], ", "))
}
