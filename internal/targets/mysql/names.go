package mysql

import (
	"context"
	"strings"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/ts"
)

// maxNameBytes is the longest device, sensor or group name the metadata
// tables' VARBINARY(1020) columns hold (see ddl).
const maxNameBytes = 1020

// Setup refuses a name the metadata tables cannot hold, before anything is
// written, then creates the tables and records the schema
// (sqlfamily.Queries.Setup).
func (t *Target) Setup(ctx context.Context, s *ts.Schema, reset bool) error {
	if err := checkNames(s); err != nil {
		return err
	}
	return t.Queries.Setup(ctx, s, reset)
}

// checkNames is bad input naming the first name over maxNameBytes. Every
// other name is stored as it is: names are data here, not identifiers.
func checkNames(s *ts.Schema) error {
	return s.EachName(func(what, n string) error {
		if strings.HasPrefix(what, "tag ") || len(n) <= maxNameBytes {
			return nil // tags are JSON text, not VARBINARY columns
		}
		return badinput.Errorf("mysql: %s %q is %d bytes; names are at most %d bytes (VARBINARY(%d) columns)",
			what, n, len(n), maxNameBytes, maxNameBytes)
	})
}
