package replay

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
)

// The reader's keys reach the import (DATA_DELIMITER, DATA_HEADER_ROWS,
// DATA_MISSING, DATA_DEVICE_COLUMNS=none), and what the import refuses
// is bad input (exit 2) naming the key.
func TestOpenReaderKeys(t *testing.T) {
	const logger = "timestamps_UTC;vf;te_in\n[UTC];[-];[degC]\n2020-01-01T00:00:00;7,35e-07;-999\n2020-01-01T00:01:00;7,4e-07;21,5\n"
	const status = "date,status,v\n2020-01-01,ok,1\n2020-01-02,ok,2\n"
	cases := []struct {
		name, content string
		sets          []string
		points        int64 // 0: refused
		want          string
	}{
		{"detected", logger, nil, 4, ""},
		{"a sentinel added", logger, []string{"DATA_MISSING=+-999"}, 3, ""},
		{"the separator given wrong", logger, []string{"DATA_DELIMITER=comma"}, 0, "fields split at comma (,), as DATA_DELIMITER says"},
		{"the units row read as data", logger, []string{"DATA_HEADER_ROWS=1"}, 0, `no time column: none of "timestamps_UTC"`},
		{"a removal of no marker", logger, []string{"DATA_MISSING=-999"}, 0, `DATA_MISSING "-999": "-999" removes "999", which is not a marker`},
		{"a key that decides the count", status, nil, 0, "DATA_DEVICE_COLUMNS=none measures it"},
		{"measured", status, []string{"DATA_DEVICE_COLUMNS=none"}, 4, ""},
		{"the device", status, []string{"DATA_DEVICE_COLUMNS=status"}, 2, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "x.csv")
			if err := os.WriteFile(src, []byte(c.content), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := config.Default()
			cfg.Data = src
			for _, s := range c.sets {
				if err := config.SetArg(cfg, s); err != nil {
					t.Fatal(err)
				}
			}
			ds, _, err := Open(cfg, dir, io.Discard)
			if c.points == 0 {
				if !badinput.Is(err) || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("%v, want exit 2 with %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer ds.Close()
			if ds.Points() != c.points {
				t.Fatalf("%d points, want %d", ds.Points(), c.points)
			}
		})
	}
}
