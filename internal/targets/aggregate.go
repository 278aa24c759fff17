package targets

import (
	"fmt"

	"github.com/tsbench/tsbench/internal/ts"
)

// AggregateNames are what a query language calls each of the aggregates a
// query asks for (ts.Aggregate): a function's name, or the SQL of it.
type AggregateNames struct {
	Count, Sum, Avg, Min, Max string
}

// Of returns the name of a, or an error starting with "<target>: " for an
// aggregate that has none.
func (n *AggregateNames) Of(target string, a ts.Aggregate) (string, error) {
	switch a {
	case ts.Count:
		return n.Count, nil
	case ts.Sum:
		return n.Sum, nil
	case ts.Avg:
		return n.Avg, nil
	case ts.Min:
		return n.Min, nil
	case ts.Max:
		return n.Max, nil
	}
	return "", fmt.Errorf("%s: aggregate %s: unknown", target, a)
}
