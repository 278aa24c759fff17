package ts

import "fmt"

// FleetKind is one of TSBS's iot questions about a fleet of trucks
// (internal/fleet defines each answer): devices are trucks with TSBS's
// truck tags (name, fleet, driver, model, load_capacity,
// nominal_fuel_consumption) and its readings and diagnostics fields as
// sensors.
type FleetKind uint8

const (
	LowFuel            FleetKind = iota + 1 // low-fuel
	HighLoad                                // high-load
	StationaryTrucks                        // stationary-trucks
	LongDrivingSession                      // long-driving-sessions
	LongDailySession                        // long-daily-sessions
	AvgVsProjectedFuel                      // avg-vs-projected-fuel-consumption
	AvgDailyDriving                         // avg-daily-driving-duration
	AvgDailySession                         // avg-daily-driving-session
	AvgLoad                                 // avg-load
	DailyActivity                           // daily-activity
	BreakdownFrequency                      // breakdown-frequency
)

// FleetKinds lists the kinds in TSBS's order.
var FleetKinds = []FleetKind{LowFuel, HighLoad, StationaryTrucks, LongDrivingSession, LongDailySession,
	AvgVsProjectedFuel, AvgDailyDriving, AvgDailySession, AvgLoad, DailyActivity, BreakdownFrequency}

var fleetNames = [...]string{"", "low-fuel", "high-load", "stationary-trucks", "long-driving-sessions",
	"long-daily-sessions", "avg-vs-projected-fuel-consumption", "avg-daily-driving-duration",
	"avg-daily-driving-session", "avg-load", "daily-activity", "breakdown-frequency"}

// String is TSBS's name of the query type.
func (k FleetKind) String() string {
	if k >= 1 && int(k) < len(fleetNames) {
		return fleetNames[k]
	}
	return fmt.Sprintf("FleetKind(%d)", k)
}

// ParseFleetKind finds a kind by TSBS's name.
func ParseFleetKind(name string) (FleetKind, bool) {
	for _, k := range FleetKinds {
		if k.String() == name {
			return k, true
		}
	}
	return 0, false
}

// FleetQuery makes a Query one of TSBS's iot questions: the Query's Kind
// is the tsbench kind it is timed as, its Start and End bound the rows it
// reads ([Start, End); low-fuel and high-load read each truck's newest
// point, whatever the window), and Devices are every truck.
type FleetQuery struct {
	Kind  FleetKind
	Fleet string // the fleet asked about, where the question names one
}

// FleetRow is one row of a fleet answer: its text columns (tag values)
// and its numbers, in the order internal/fleet gives for the kind.
type FleetRow struct {
	Key    []string
	Values []float64
}
