package opentsdb

import (
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// An answer lists series in any order and leaves out those without points;
// inQueryOrder places each by its metric and device, device by device.
func TestInQueryOrder(t *testing.T) {
	devs := []ts.Device{{Name: "d_0"}, {Name: "d_1"}}
	q := ts.Query{Kind: ts.GroupBy, Devices: []*ts.Device{&devs[0], &devs[1]}, Sensors: []int{1, 0}, Across: true}
	metrics := []string{"db.s_0", "db.s_1"}
	ans := []series{
		{Metric: "db.s_0", Tags: map[string]string{"device": "d_1"}, DPS: map[string]float64{"1000": 4}},
		{Metric: "db.s_1", Tags: map[string]string{"device": "d_0"}, DPS: map[string]float64{"1000": 1, "2000": 2}},
	}
	all, err := inQueryOrder(&q, metrics, serverNames{}, ans)
	if err != nil {
		t.Fatal(err)
	}
	// d_0 s_1, d_0 s_0, d_1 s_1, d_1 s_0.
	sizes := []int{2, 0, 0, 1}
	if len(all) != len(sizes) {
		t.Fatalf("%d series, want %d", len(all), len(sizes))
	}
	for i, n := range sizes {
		if len(all[i]) != n {
			t.Errorf("series %d has %d points, want %d", i, len(all[i]), n)
		}
	}
	if all[3][0].V != 4 {
		t.Errorf("d_1 s_0 = %v, want 4", all[3][0].V)
	}
	ans = append(ans, series{Metric: "db.s_0", Tags: map[string]string{"device": "d_9"}})
	if _, err := inQueryOrder(&q, metrics, serverNames{}, ans); err == nil {
		t.Error("a series of another device is placed")
	}
}
