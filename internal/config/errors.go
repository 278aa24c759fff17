package config

import (
	"fmt"
	"strings"
)

// Error is a configuration mistake the user has to fix: a value a key does
// not accept, a setting tsbench does not support, or values that contradict
// each other. The CLI exits with status 2 on it. Its message names the place,
// the key, the value and what would be accepted, e.g.
//
//	config.properties:12: DEVICE_NUMBER = "abc": must be an integer >= 1
type Error struct {
	Key     string // canonical key name; empty for a problem with the file itself
	Value   string // the value as given ("***" for secrets)
	Allowed string // what the key accepts, e.g. "an integer >= 1"
	Source  string // file:line, "flag", or empty when the value is a default
	// Reason says what is wrong when that is more than "must be <Allowed>",
	// e.g. "not supported: ..." or a cross-field conflict.
	Reason string
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.Source != "" {
		b.WriteString(e.Source)
		b.WriteString(": ")
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "%s = %q: ", e.Key, e.Value)
	}
	switch {
	case e.Reason == "":
		b.WriteString("must be ")
		b.WriteString(e.Allowed)
	case e.Allowed == "":
		b.WriteString(e.Reason)
	default:
		fmt.Fprintf(&b, "%s (allowed: %s)", e.Reason, e.Allowed)
	}
	return b.String()
}

// badValue is what a setter returns for a value outside the key's Allowed
// text; assign fills in key, value and source.
func badValue() error { return &Error{} }

// because is what a setter returns when "must be <Allowed>" would not say
// enough.
func because(format string, args ...any) error {
	return &Error{Reason: fmt.Sprintf(format, args...)}
}

// unknownKeyError is returned by assign for a name the key table does not
// know; the readers turn it into a warning, Set into an *Error.
type unknownKeyError struct {
	name       string
	suggestion string // closest known key, or empty
}

func (e *unknownKeyError) Error() string {
	if e.suggestion != "" {
		return fmt.Sprintf("unknown key %s (did you mean %s?)", e.name, e.suggestion)
	}
	return "unknown key " + e.name
}
