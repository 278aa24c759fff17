package workload

import (
	"fmt"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

func TestJavaNextIntMatchesJava(t *testing.T) {
	// Java 17: new Random(seed), then nextInt(6000), nextInt(6000),
	// nextInt(200), nextInt(16), nextInt(7), nextInt(1000000007).
	bounds := []int32{6000, 6000, 200, 16, 7, 1000000007}
	for seed, want := range map[int64][]int32{
		151658: {5712, 937, 124, 1, 1, 204401315},
		151659: {5338, 3225, 142, 14, 3, 618535173},
		3:      {3734, 5660, 10, 12, 0, 249547195},
	} {
		r := newJavaRandom(seed)
		for i, b := range bounds {
			if got := r.nextInt(b); got != want[i] {
				t.Errorf("seed %d nextInt(%d) #%d = %d, Java gives %d", seed, b, i, got, want[i])
			}
		}
	}
}

// The devices and sensors IoT-benchmark's GenerateQueryWorkLoad draws for
// client 1, QUERY_SEED 151658, 10 devices, sensors BOOLEAN INT32 INT64 FLOAT
// DOUBLE TEXT, 2 devices and 2 sensors a query, queries allowing every type,
// then numeric only, in turn, as a Java program with java.util.Random drew
// them: d5[4 3] d2[4 1]; d2[4 3] d3[3 2]; d4[0 2] d2[0 5]; d0[1 3] d6[2 1].
// A ts.Query has one sensor set: the first device's.
func TestJavaDrawsAsIoTBenchmark(t *testing.T) {
	checkJavaDraws(t, 1, []javaDrawWant{
		{false, "[5 2]", "[4 3]"},
		{true, "[2 3]", "[4 3]"},
		{false, "[4 2]", "[0 2]"},
		{true, "[0 6]", "[1 3]"},
	})
}

// In IoTDB's tree model IoT-benchmark makes a table of each storage group
// and draws a query's devices from the table of a first drawn device: with
// GROUP_NUMBER 3 (mod), a Java program drew d2[4 3] d5[4 1]; d0[4 3]
// d3[3 2]; d7[0 2] d1[0 5]; d7[1 3] d1[2 1].
func TestJavaDrawsOneGroup(t *testing.T) {
	checkJavaDraws(t, 3, []javaDrawWant{
		{false, "[2 5]", "[4 3]"},
		{true, "[0 3]", "[4 3]"},
		{false, "[7 1]", "[0 2]"},
		{true, "[7 1]", "[1 3]"},
	})
}

type javaDrawWant struct {
	numericOnly bool
	devices     string
	sensors     string
}

func checkJavaDraws(t *testing.T, groups int, want []javaDrawWant) {
	t.Helper()
	s := &ts.Schema{}
	for i := range 10 {
		s.Devices = append(s.Devices, ts.Device{Index: i, Name: fmt.Sprint("d", i), Group: i % groups})
	}
	for i, typ := range []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double, ts.Text} {
		s.Sensors = append(s.Sensors, ts.Sensor{Name: fmt.Sprint("s", i), Type: typ})
	}
	j := newJavaDraws(151658, 1)
	for i, w := range want {
		devs, sens := j.draw(s, 2, 2, w.numericOnly, nil, nil)
		var idx []int
		for _, d := range devs {
			idx = append(idx, d.Index)
		}
		if got := fmt.Sprint(idx); got != w.devices {
			t.Errorf("query %d: devices %s, IoT-benchmark %s", i, got, w.devices)
		}
		if got := fmt.Sprint(sens); got != w.sensors {
			t.Errorf("query %d: sensors %s, IoT-benchmark's first device %s", i, got, w.sensors)
		}
	}
}
