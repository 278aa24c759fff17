package config

import (
	"strings"
	"testing"
)

// DATA_DELIMITER takes a separator's name or the character, stored by
// name; DATA_HEADER_ROWS a count of lines. Anything else is refused
// naming the key, the value and what is allowed.
func TestDataReaderKeys(t *testing.T) {
	cases := []struct {
		set       string
		delimiter string
		rows      int
		err       string
	}{
		{"", "auto", 0, ""},
		{"DATA_DELIMITER=semicolon", "semicolon", 0, ""},
		{"DATA_DELIMITER=;", "semicolon", 0, ""},
		{"DATA_DELIMITER=|", "pipe", 0, ""},
		{`DATA_DELIMITER=\t`, "tab", 0, ""},
		{"DATA_DELIMITER=Space", "space", 0, ""},
		{"DATA_DELIMITER=colon", "", 0, `DATA_DELIMITER = "colon": must be auto, comma, semicolon, tab, pipe or space (or the character: , ; |)`},
		{"DATA_HEADER_ROWS=2", "auto", 2, ""},
		{"DATA_HEADER_ROWS=-1", "", 0, `DATA_HEADER_ROWS = "-1": must be an integer in [0, 100]`},
	}
	for _, c := range cases {
		var args []string
		if c.set != "" {
			args = append(args, c.set)
		}
		cfg, err := FromArgs(args...)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.set, err, c.err)
			}
		case err != nil || cfg.DataDelimiter != c.delimiter || cfg.DataHeaderRows != c.rows:
			t.Errorf("%s: %v: DATA_DELIMITER %q, DATA_HEADER_ROWS %d; want %q, %d", c.set, err, cfg.DataDelimiter, cfg.DataHeaderRows, c.delimiter, c.rows)
		}
	}
}
