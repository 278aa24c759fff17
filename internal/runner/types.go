package runner

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// shownSensors bounds the sensor names an error lists.
const shownSensors = 5

// checkTypes refuses, before anything is sent, a schema holding a type the
// target cannot store: the server would refuse it only once the run has
// started. The error names the sensors and the INSERT_DATATYPE_PROPORTION
// that fits.
func checkTypes(d *targets.Driver, s *ts.Schema, proportion [6]int64) error {
	var bad []string
	types := map[ts.DataType]bool{}
	for _, sn := range s.Sensors {
		if !d.Caps.SupportsType(sn.Type) {
			bad = append(bad, sn.Name)
			types[sn.Type] = true
		}
	}
	if len(bad) == 0 {
		return nil
	}
	var names []string
	for _, t := range ts.DataTypes {
		if types[t] {
			names = append(names, t.String())
		}
	}
	label := "sensors"
	if len(bad) == 1 {
		label = "sensor"
	}
	if len(bad) > shownSensors {
		bad = append(bad[:shownSensors], fmt.Sprintf("and %d more", len(bad)-shownSensors))
	}
	return fmt.Errorf("target %s cannot store %s, the type of %s %s: INSERT_DATATYPE_PROPORTION = %q; "+
		"use INSERT_DATATYPE_PROPORTION=%s (it stores %s)", d.Name, strings.Join(names, " or "), label, strings.Join(bad, ", "),
		proportionText(proportion), proportionText(FitTypes(d, proportion)), typeList(d.Caps.Types))
}

// FitTypes is the proportion with the types the target cannot store left
// out, or every type it stores alike when nothing would be left.
func FitTypes(d *targets.Driver, p [6]int64) [6]int64 {
	var out [6]int64
	left := int64(0)
	for i, t := range ts.DataTypes {
		if d.Caps.SupportsType(t) {
			out[i] = p[i]
			left += p[i]
		}
	}
	if left == 0 {
		for i, t := range ts.DataTypes {
			if d.Caps.SupportsType(t) {
				out[i] = 1
			}
		}
	}
	return out
}

// ProportionText is a type proportion as INSERT_DATATYPE_PROPORTION writes it.
func ProportionText(p [6]int64) string { return proportionText(p) }

func proportionText(p [6]int64) string {
	parts := make([]string, len(p))
	for i, v := range p {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ":")
}

func typeList(types []ts.DataType) string {
	names := make([]string, len(types))
	for i, t := range types {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}
