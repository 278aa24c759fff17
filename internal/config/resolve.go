package config

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/ts"
)

// Resolve completes a configuration once every file and flag has been
// applied, and checks it. It
//   - re-checks every value with the parser the readers use, so that a
//     Config assembled or changed in code obeys the same rules as one read
//     from a file;
//   - checks values against each other (clients against devices, query
//     sizes against the schema, numeric sensors against value queries...);
//   - turns OP_MIN_INTERVAL = -1 into POINT_STEP (Print still shows -1);
//   - sets LoopUnbounded when DURATION (--duration) is given and LOOP is
//     not: the run then lasts the duration, as k6 and pgbench -T do;
//   - like IoT-benchmark, turns IS_DELETE_DATA off when nothing is
//     written, so that a query-only run reads the data an earlier run left.
//
// It is idempotent. Its errors are *Error.
func Resolve(c *Config) error {
	if err := recheck(c); err != nil {
		return err
	}
	for _, check := range crossChecks {
		if err := check(c); err != nil {
			return err
		}
	}
	if c.OpMinIntervalStep {
		c.OpMinInterval = time.Duration(c.PointStep) * time.Millisecond
	}
	if c.WriteWeight() == 0 {
		c.DeleteData = false
	}
	c.LoopUnbounded = c.RunFor && c.MaxTime > 0 && c.origin["LOOP"] == ""
	return nil
}

// recheck feeds every field's printed value back through its key's setter,
// on a scratch copy so that c is not touched.
func recheck(c *Config) error {
	for i := range keyTable {
		k := &keyTable[i]
		if k.set == nil || k.Hidden {
			continue
		}
		v := k.get(c)
		if _, isMap := v.(map[string]string); isMap {
			continue // target options are free-form
		}
		text := fmt.Sprint(v)
		scratch := *c
		if err := k.set(&scratch, text); err != nil {
			return describe(err, k, text, c.origin[k.Name])
		}
	}
	return nil
}

var crossChecks = []func(*Config) error{
	checkProm, // first: its CLIENT_NUMBER and WORKERS rules replace the time series run's
	checkGroups,
	checkClients,
	checkWorkers,
	checkData,
	checkQuerySizes,
	checkNumericSensors,
	checkTagCardinality,
	checkValueModels,
	checkDependents,
}

// conflict blames key for a combination of values.
func conflict(c *Config, key string, value any, allowed, reason string) *Error {
	return &Error{Key: key, Value: fmt.Sprint(value), Allowed: allowed, Reason: reason, Source: c.origin[key]}
}

func checkGroups(c *Config) error {
	if c.Groups > c.Devices {
		return conflict(c, "GROUP_NUMBER", c.Groups,
			fmt.Sprintf("an integer in [1, %d] (DEVICE_NUMBER): a group without devices would stay empty", c.Devices), "")
	}
	return nil
}

// checkClients: a writing client owns its devices (IoT-benchmark's client
// binding), so there cannot be more writing clients than devices. A
// query-only run may have more clients than devices.
func checkClients(c *Config) error {
	if c.WriteWeight() > 0 && c.Clients > c.Devices && c.Workload != WorkloadPrometheus {
		return conflict(c, "CLIENT_NUMBER", c.Clients,
			fmt.Sprintf("at most DEVICE_NUMBER = %d while writes have weight", c.Devices),
			"more clients than devices: each writing client must own at least one device; "+
				"lower CLIENT_NUMBER, raise DEVICE_NUMBER, or set the write weight of OPERATION_PROPORTION to 0")
	}
	return nil
}

// checkWorkers: a worker's share is whole clients, so there cannot be more
// workers than clients; the index must be one of the shares; the workers
// need a group name to find each other and their results.
func checkWorkers(c *Config) error {
	if c.WorkerIndex >= c.Workers {
		return conflict(c, "WORKER_INDEX", c.WorkerIndex, fmt.Sprintf("an integer in [0, %d] (WORKERS - 1)", c.Workers-1), "")
	}
	if !c.Scaled() {
		if !c.StartAt.IsZero() {
			return conflict(c, "START_AT", c.StartAt.Format(time.RFC3339), "empty while WORKERS = 1 and RUN_GROUP is empty",
				"a start time makes several workers begin together; set WORKERS and RUN_GROUP (--workers, --group) too, or drop it")
		}
		return nil
	}
	switch {
	case c.Data != "":
		return conflict(c, "WORKERS", c.Workers, "1 with DATA", "a replayed file is not split between workers (yet): run it from one process")
	case c.Workers > c.Clients:
		return conflict(c, "WORKERS", c.Workers, fmt.Sprintf("an integer in [1, %d] (CLIENT_NUMBER)", c.Clients),
			"each worker runs whole clients: raise CLIENT_NUMBER or lower WORKERS")
	case c.Cluster:
		return conflict(c, "WORKERS", c.Workers, "1 with BENCHMARK_CLUSTER = true",
			"BENCHMARK_CLUSTER gives each instance DEVICE_NUMBER devices of its own (IoT-benchmark's split); "+
				"WORKERS splits one run's clients; use one or the other")
	case c.Workload == WorkloadTPCC && !c.StartAt.IsZero():
		return conflict(c, "START_AT", c.StartAt.Format(time.RFC3339), "unset with WORKLOAD = tpcc and WORKERS (the results store's barrier)",
			"the other workers wait in the results store for worker 0's load, and worker 0 checks the consistency conditions once every worker has ended")
	case strings.TrimSpace(c.RunGroup) == "":
		return conflict(c, "RUN_GROUP", "", "a name shared by the workers of one run, e.g. --group nightly-42",
			fmt.Sprintf("WORKERS = %d needs it: the workers meet at the start barrier and are merged by it", c.Workers))
	}
	return nil
}

// checkData: a replay writes time series; TPC-C has its own data.
func checkData(c *Config) error {
	if c.Data != "" && c.Workload == WorkloadTPCC {
		return conflict(c, "DATA", c.Data, "empty with WORKLOAD = tpcc", "TPC-C loads and runs its own tables; DATA replays time series")
	}
	return nil
}

func (c *Config) anyQuery() bool {
	for _, k := range ts.QueryKinds {
		if c.QueryWeight(k) > 0 {
			return true
		}
	}
	return false
}

func checkQuerySizes(c *Config) error {
	if !c.anyQuery() {
		return nil
	}
	if c.QueryDevices > c.Devices {
		return conflict(c, "QUERY_DEVICE_NUM", c.QueryDevices,
			fmt.Sprintf("an integer in [1, %d] (DEVICE_NUMBER) when queries have weight", c.Devices), "")
	}
	if c.QuerySensors > c.Sensors {
		return conflict(c, "QUERY_SENSOR_NUM", c.QuerySensors,
			fmt.Sprintf("an integer in [1, %d] (SENSOR_NUMBER) when queries have weight", c.Sensors), "")
	}
	return checkGroupByLimit(c)
}

// checkGroupByLimit: a bucket limit counts buckets of one aggregate across
// devices (TSBS's groupby-orderby-limit); over several series or sensors
// "the newest N buckets" would need a limit per group, which no target's
// LIMIT expresses.
func checkGroupByLimit(c *Config) error {
	if c.GroupByLimit == 0 {
		return nil
	}
	if !c.GroupByAcross {
		return conflict(c, "GROUP_BY_LIMIT", c.GroupByLimit, "0 unless GROUP_BY_ACROSS_DEVICES = true",
			"the limit counts buckets of one aggregate across the devices")
	}
	if c.QuerySensors != 1 {
		return conflict(c, "GROUP_BY_LIMIT", c.GroupByLimit, "0 unless QUERY_SENSOR_NUM = 1",
			fmt.Sprintf("QUERY_SENSOR_NUM = %d: the limit counts buckets of one sensor", c.QuerySensors))
	}
	return nil
}

// numericQueries lists the weighted query kinds that can only read numeric
// sensors: value filters (Q3, Q5, Q6, Q10) and, unless the aggregate is
// count, the aggregating kinds (Q4..Q7).
func (c *Config) numericQueries() []string {
	var out []string
	for _, k := range ts.QueryKinds {
		if c.QueryWeight(k) > 0 && (k.HasValueFilter() || (k.Aggregates() && c.QueryAggregate.NeedsNumeric())) {
			out = append(out, k.Short())
		}
	}
	return out
}

func checkNumericSensors(c *Config) error {
	kinds := c.numericQueries()
	if len(kinds) == 0 {
		return nil
	}
	n := numericSensors(c.TypeProportion, c.Sensors)
	if n >= c.QuerySensors {
		return nil
	}
	return conflict(c, "INSERT_DATATYPE_PROPORTION", joinInts(c.TypeProportion[:], ":"), "",
		fmt.Sprintf("gives %d numeric sensors of SENSOR_NUMBER = %d, but %s need QUERY_SENSOR_NUM = %d: "+
			"value filters and sum, avg, min, max apply only to INT32, INT64, FLOAT and DOUBLE sensors",
			n, c.Sensors, strings.Join(kinds, ", "), c.QuerySensors))
}

func checkTagCardinality(c *Config) error {
	if n := len(c.TagCardinality); n != 0 && n != c.Tags {
		return conflict(c, "TAG_VALUE_CARDINALITY", joinInts(c.TagCardinality, ","), "",
			fmt.Sprintf("has %d values for TAG_NUMBER = %d tags; give one per tag, or none for %d each",
				n, c.Tags, DefaultTagCardinality))
	}
	return nil
}

func checkValueModels(c *Config) error {
	if c.LineRatio+c.SinRatio+c.SquareRatio+c.RandomRatio+c.ConstantRatio+c.WalkRatio > 0 {
		return nil
	}
	return &Error{Reason: "LINE_RATIO, SIN_RATIO, SQUARE_RATIO, RANDOM_RATIO, CONSTANT_RATIO and WALK_RATIO " +
		"are all 0: at least one value model needs weight"}
}
