package targets

import (
	"context"
	"fmt"

	"github.com/tsbench/tsbench/internal/ts"
)

// FleetQuerier is implemented by targets that answer TSBS's iot questions
// (a ts.Query with Fleet set) in their own query language. The rows are
// those internal/fleet's Answer gives, in any order; a question the
// target cannot express returns an error wrapping ErrUnsupported with the
// reason. The runner counts the query unsupported on a target without it.
type FleetQuerier interface {
	FleetQuery(ctx context.Context, q *ts.Query) ([]ts.FleetRow, error)
}

// CheckFleet says, as an error, that q is not a fleet question (it has no
// Fleet): what a FleetQuery checks before it reads q.Fleet.
func CheckFleet(q *ts.Query) error {
	if q.Fleet == nil {
		return fmt.Errorf("%s is not a fleet question", q.Kind)
	}
	return nil
}
