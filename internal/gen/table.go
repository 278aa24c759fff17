package gen

import "fmt"

// Table holds every value of a dataset whose values cannot be computed
// from their index, in place of the models: TSBS's cpu data, drawn from one
// random sequence row after row, where reaching row k costs every draw
// before it. Its values are whole numbers from 0 to 255, one byte each
// (TSBS's cpu fields are integer percentages).
type Table struct {
	Devices, Sensors int
	Rows             int64
	cells            []uint8 // by device, then row, then sensor
}

// NewTable is a table of zeros; Set fills it.
func NewTable(devices, sensors int, rows int64) *Table {
	return &Table{Devices: devices, Sensors: sensors, Rows: rows,
		cells: make([]uint8, int64(devices)*rows*int64(sensors))}
}

// TableBytes is the memory a table of that shape takes.
func TableBytes(devices, sensors int, rows int64) int64 {
	return int64(devices) * rows * int64(sensors)
}

// Set stores value v of device's sensor at row k.
func (t *Table) Set(device, sensor int, k int64, v uint8) {
	t.cells[t.index(device, sensor, k)] = v
}

// holds reports whether the table has row k of device's sensor.
func (t *Table) holds(device, sensor int, k int64) bool {
	return device >= 0 && device < t.Devices && sensor >= 0 && sensor < t.Sensors && k >= 0 && k < t.Rows
}

// holdsAll reports whether the table has every row of rows of device's
// sensor.
func (t *Table) holdsAll(device, sensor int, rows []int64) bool {
	for _, k := range rows {
		if !t.holds(device, sensor, k) {
			return false
		}
	}
	return true
}

// at is the value of device's sensor at row k, which the table holds.
func (t *Table) at(device, sensor int, k int64) float64 {
	return float64(t.cells[t.index(device, sensor, k)])
}

func (t *Table) index(device, sensor int, k int64) int64 {
	return (int64(device)*t.Rows+k)*int64(t.Sensors) + int64(sensor)
}

// fill overwrites vals[i] with row rows[i]'s value wherever the table holds
// it: a row past the table keeps its model's value.
func (t *Table) fill(device, sensor int, rows []int64, vals []float64) {
	for i, k := range rows {
		if t.holds(device, sensor, k) {
			vals[i] = t.at(device, sensor, k)
		}
	}
}

// check reports a table that does not fit the schema's sensors.
func (t *Table) check(sensors int) error {
	if t.Sensors != sensors {
		return fmt.Errorf("gen: value table has %d sensors, the schema %d", t.Sensors, sensors)
	}
	return nil
}
