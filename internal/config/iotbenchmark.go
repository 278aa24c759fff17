package config

import (
	"fmt"
	"strings"
	"time"
)

// IoTBenchmarkRules applies to a configuration read from a .properties file
// the rules by which IoT-benchmark reads the same keys, where tsbench's own
// reading of its flags and YAML differs. It returns notes for the run's
// header, or an *Error (exit 2) where IoT-benchmark refuses the file too.
func IoTBenchmarkRules(c *Config, zone *time.Location) ([]string, error) {
	var notes []string
	if err := loopCoversKinds(c); err != nil {
		return nil, err
	}
	// IoT-benchmark scales values by ten DOUBLE_LENGTH times
	// (GenerateDataWorkLoad): a negative length leaves the factor at 1,
	// and the values whole numbers. tsbench's own -1 keeps every decimal.
	if c.DoubleLength < 0 && fromProperties(c.Origin("DOUBLE_LENGTH")) {
		c.DoubleLength = 0
		notes = append(notes, "DOUBLE_LENGTH = -1 in a .properties file: values are whole numbers, as IoT-benchmark "+
			"makes them (its scale factor stays 1); every decimal is --set DOUBLE_LENGTH=-1")
	}
	if c.StartTimeZoneless && fromProperties(c.Origin("START_TIME")) {
		notes = append(notes, fmt.Sprintf("START_TIME %s has no zone: read as UTC, the same instant on every machine; "+
			"IoT-benchmark would read it in this machine's zone (%s): write its offset, e.g. %s, to mean that",
			c.StartTime.Format("2006-01-02T15:04:05"), zone, c.StartTime.In(zone).Format("-07:00")))
	}
	return notes, nil
}

// loopCoversKinds refuses, as IoT-benchmark's checkOperationProportion
// does, a LOOP smaller than the number of operation kinds with a weight:
// some kinds could not run.
func loopCoversKinds(c *Config) error {
	if c.LoopUnbounded {
		return nil
	}
	kinds := 0
	for _, w := range c.Proportion {
		if w > 0 {
			kinds++
		}
	}
	if c.Loop >= int64(kinds) {
		return nil
	}
	return &Error{Key: "LOOP", Value: fmt.Sprint(c.Loop), Source: c.Origin("LOOP"),
		Allowed: fmt.Sprintf("at least %d, the kinds OPERATION_PROPORTION weighs", kinds),
		Reason:  fmt.Sprintf("%d operations per client cannot run the %d kinds OPERATION_PROPORTION weighs (IoT-benchmark refuses it too)", c.Loop, kinds)}
}

// fromProperties reports whether an Origin is a line of a .properties
// file.
func fromProperties(origin string) bool { return strings.Contains(origin, ".properties:") }
