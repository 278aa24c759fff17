package runner

import (
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// A type the target cannot store stops the run before anything is sent,
// naming the sensors and the proportion that fits.
func TestTypesCheckedBeforeTheRun(t *testing.T) {
	numbers := &targets.Driver{Name: "numbers", Caps: targets.Capabilities{
		Types: []ts.DataType{ts.Boolean, ts.Int32, ts.Int64, ts.Float, ts.Double}}}
	doubles := &targets.Driver{Name: "doubles", Caps: targets.Capabilities{Types: []ts.DataType{ts.Double}}}
	cases := []struct {
		driver *targets.Driver
		args   []string
		want   []string // "" when the run may start
	}{
		{numbers, []string{"INSERT_DATATYPE_PROPORTION=1:1:1:1:1:0"}, nil},
		{numbers, []string{"SENSOR_NUMBER=10"}, []string{"cannot store TEXT", "sensors s_8, s_9:", "use INSERT_DATATYPE_PROPORTION=1:1:1:1:1:0"}},
		{numbers, []string{"SENSOR_NUMBER=60"}, []string{"sensors s_50, s_51, s_52, s_53, s_54, and 5 more"}},
		{doubles, []string{"INSERT_DATATYPE_PROPORTION=1:0:0:3:0:0", "QUERY_SENSOR_NUM=1"},
			[]string{"cannot store BOOLEAN or FLOAT", "use INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0 (it stores DOUBLE)"}},
	}
	for _, c := range cases {
		cfg, err := config.FromArgs(append([]string{"DB_SWITCH=null", "DEVICE_NUMBER=4"}, c.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = New(cfg, c.driver, targets.Options{})
		if c.want == nil {
			if err != nil {
				t.Errorf("%s %v: %v", c.driver.Name, c.args, err)
			}
			continue
		}
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%s %v: error %v, want %q", c.driver.Name, c.args, err, w)
			}
		}
	}
}
