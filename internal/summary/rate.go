package summary

// The rate an operation is read by. An operation's Throughput is its
// points per second, as IoT-benchmark's Result matrix gives it; for a
// write that is the work done, but a query's points are those of its
// answers, which say nothing of how many questions were answered: a
// query is read in queries per second, a TPC-C transaction in
// transactions per second.

// The units of Rate.
const (
	UnitPoints       = "points/s"
	UnitQueries      = "queries/s"
	UnitTransactions = "transactions/s"
)

// WriteOperation is the operation whose size is points.
const WriteOperation = "INGESTION"

// RateUnit is what the rate of the run's operation op counts.
func (s *Summary) RateUnit(op string) string {
	switch {
	case op == WriteOperation:
		return UnitPoints
	case s.TPCC != nil:
		return UnitTransactions
	}
	return UnitQueries
}

// Rate is o's rate over the measured phase, in RateUnit(o.Name): its
// Throughput for a write, its successful operations per second else.
func (s *Summary) Rate(o *Operation) float64 {
	if s.RateUnit(o.Name) == UnitPoints {
		return o.Throughput
	}
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(o.OKOperations) / s.Elapsed
}

// IntervalRate is an interval's rate of an operation in unit (RateUnit);
// an interval in which the operation did nothing (o nil) counts 0.
func IntervalRate(unit string, iv Interval, o *IntervalOp) float64 {
	if o == nil || iv.Seconds <= 0 {
		return 0
	}
	if unit == UnitPoints {
		return float64(o.OKPoints) / iv.Seconds
	}
	return float64(o.OKOps) / iv.Seconds
}
