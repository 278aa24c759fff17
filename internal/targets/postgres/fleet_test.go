package postgres

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
	"github.com/tsbench/tsbench/internal/ts"
)

// The wide layout's fleet statements read every group table of the
// trucks in UNION ALL, a field being its column; a field that is no
// sensor is an error, not SQL naming a missing column.
func TestWideFleetSQL(t *testing.T) {
	s := &ts.Schema{Groups: []string{"east", "west"},
		Devices: []ts.Device{{Name: "a", Group: 1}, {Name: "b", Group: 0}, {Name: "c", Group: 1}},
		Sensors: []ts.Sensor{{Name: "velocity"}, {Name: "fuel_consumption"}, {Name: "fuel_state"}}}
	names, err := newWideNames("postgres", s)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind       ts.FleetKind
		part, args string // a CTE of the statement, and all its parameters
	}{
		{ts.LowFuel, `nw AS (SELECT g.name AS truck, (SELECT x."fuel_state" FROM "wide_east" x WHERE x.device = g.name` +
			` AND x."fuel_state" IS NOT NULL ORDER BY x.t DESC LIMIT 1) AS v FROM devices g WHERE g.grp = $5 UNION ALL` +
			` SELECT g.name AS truck, (SELECT x."fuel_state" FROM "wide_west" x WHERE x.device = g.name` +
			` AND x."fuel_state" IS NOT NULL ORDER BY x.t DESC LIMIT 1) AS v FROM devices g WHERE g.grp = $6)`,
			"[name driver fleet North east west]"},
		{ts.AvgVsProjectedFuel, `pr AS (SELECT device AS truck, "velocity" AS v1, "fuel_consumption" AS v2 FROM "wide_east"` +
			` WHERE "velocity" IS NOT NULL AND "fuel_consumption" IS NOT NULL AND t >= $3 AND t < $4 UNION ALL` +
			` SELECT device AS truck, "velocity" AS v1, "fuel_consumption" AS v2 FROM "wide_west"` +
			` WHERE "velocity" IS NOT NULL AND "fuel_consumption" IS NOT NULL AND t >= $5 AND t < $6)`,
			"[fleet nominal_fuel_consumption 1000 2000 1000 2000]"},
		{ts.StationaryTrucks, `raw AS (SELECT device AS truck, t, "velocity" AS v FROM "wide_east" WHERE "velocity" IS NOT NULL` +
			` AND t >= $5 AND t < $6 UNION ALL SELECT device AS truck, t, "velocity" AS v FROM "wide_west"` +
			` WHERE "velocity" IS NOT NULL AND t >= $7 AND t < $8)`,
			"[name driver fleet North 1000 2000 1000 2000]"},
	} {
		q := ts.Query{Kind: ts.GroupBy, Start: 1000, End: 2000, Fleet: &ts.FleetQuery{Kind: c.kind, Fleet: "North"}}
		src, err := newWideSource(s, names, c.kind)
		if err != nil {
			t.Fatal(err)
		}
		b := sqlfamily.NewBuilder(&Dialect)
		if err := Dialect.FleetFrom(b, &q, src); err != nil {
			t.Fatal(err)
		}
		if args := fmt.Sprint(b.Args); !strings.Contains(b.String(), c.part) || args != c.args {
			t.Errorf("%s:\n got %s -- %s\nwant ...%s... -- %s", c.kind, b.String(), args, c.part, c.args)
		}
	}
	if _, err := newWideSource(s, names, ts.AvgLoad); err == nil || !strings.Contains(err.Error(), `no sensor "current_load"`) {
		t.Errorf("avg-load without current_load: error %v", err)
	}
}
