package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/tsbench/tsbench/internal/fleet"
	"github.com/tsbench/tsbench/internal/summary"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// checkFleetQuery compares a target's answer to one of TSBS's iot
// questions with fleet.Answer over the points the run wrote.
func checkFleetQuery(ctx context.Context, caps targets.Capabilities, admin targets.Target, exp expectation, q *ts.Query, rows map[int]int64) summary.QueryCheck {
	qc := summary.QueryCheck{Query: q.Kind.String() + " " + q.Fleet.Kind.String(),
		Window: fmt.Sprintf("fleet %q time [%d, %d)", q.Fleet.Fleet, q.Start, q.End)}
	trucks, err := fleetTrucks(exp, q, rows)
	if err != nil {
		qc.Error = fmt.Sprintf("read the data: %v", err)
		return qc
	}
	want := fleet.Answer(q, trucks)
	fq, ok := admin.(targets.FleetQuerier)
	if !ok || caps.Fleet == "" {
		qc.OK, qc.Detail = true, summary.Unsupported
		return qc
	}
	got, err := fq.FleetQuery(ctx, q)
	qc.Judge(err, errors.Is(err, targets.ErrUnsupported), int64(len(got)), func() string { return fleet.Diff(got, want) })
	return qc
}

// fleetTrucks reads, for every truck of q, the points of the fields its
// question reads, as the query's Kind selects them.
func fleetTrucks(exp expectation, q *ts.Query, rows map[int]int64) ([]fleet.Truck, error) {
	var trucks []fleet.Truck
	for _, d := range q.Devices {
		tr := fleet.Truck{Tags: fleet.TagsOf(d), Points: map[string][]fleet.Point{}}
		for i, sn := range q.Sensors {
			sr, err := exp.series(q, d, sn, rows[d.Index])
			if err != nil {
				return nil, err
			}
			pts := make([]fleet.Point, 0, len(sr))
			for _, p := range sr {
				pts = append(pts, fleet.Point{T: p.T, V: p.V})
			}
			tr.Points[fleet.Fields(q.Fleet.Kind)[i]] = pts
		}
		trucks = append(trucks, tr)
	}
	return trucks, nil
}
