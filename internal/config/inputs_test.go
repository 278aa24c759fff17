package config

import (
	"strings"
	"testing"
)

// YAML's null (null, ~) is refused with a hint to quote it; an empty value
// is "" on purpose, and a quoted "null" is the text.
func TestYAMLNull(t *testing.T) {
	tests := []struct {
		doc     string
		wantErr string // "" = accepted
	}{
		{"target: null\n", `test.yaml:1: DB_SWITCH = "null": YAML reads null as no value; to mean the text, quote it (target: "null")`},
		{"host: ~\n", `test.yaml:1: HOST = "~": YAML reads ~ as no value`},
		{"target_options:\n  write_path: NULL\n", `test.yaml:2: target.write_path = "NULL": YAML reads NULL as no value`},
		{"target: \"null\"\n", ""},
		{"remark:\n", ""},
	}
	for _, tt := range tests {
		c := Default()
		_, err := loadYAMLText(c, tt.doc)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q: %v", tt.doc, err)
		case tt.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tt.wantErr)):
			t.Errorf("%q: error %v, want it to start %q", tt.doc, err, tt.wantErr)
		}
	}
}

// Unknown YAML keys are errors too, like unknown .properties keys.
func TestYAMLUnknownKey(t *testing.T) {
	_, err := loadYAMLText(Default(), "target: sqlite\ndevce_number: 3\n")
	if err == nil || err.Error() != "test.yaml:2: unknown key devce_number (did you mean device_number?)" {
		t.Errorf("got %v", err)
	}
}

// --duration alone sets the run's length (k6, pgbench -T); with LOOP too,
// whichever ends first; TEST_MAX_TIME stays IoT-benchmark's cap on LOOP.
func TestDurationRule(t *testing.T) {
	tests := []struct {
		args      []string
		unbounded bool
	}{
		{[]string{"duration=5s"}, true},
		{[]string{"duration=5s", "LOOP=100"}, false},
		{[]string{"LOOP=100", "duration=5s"}, false},
		{[]string{"TEST_MAX_TIME=5000"}, false},
		{[]string{"duration=0s"}, false},
		{[]string{"TEST_MAX_TIME=5000", "duration=2s"}, true},
		{[]string{"duration=2s", "TEST_MAX_TIME=5000"}, false},
	}
	for _, tt := range tests {
		c, err := FromArgs(tt.args...)
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if c.LoopUnbounded != tt.unbounded {
			t.Errorf("%v: LoopUnbounded = %v, want %v", tt.args, c.LoopUnbounded, tt.unbounded)
		}
		if err := Resolve(c); err != nil || c.LoopUnbounded != tt.unbounded {
			t.Errorf("%v: Resolve is not idempotent: %v %v", tt.args, err, c.LoopUnbounded)
		}
	}
}

// OPERATION_PROPORTION with fewer than 11 fields is padded with zeros, as
// IoT-benchmark does, and says so.
func TestProportionPaddingWarns(t *testing.T) {
	tests := []struct {
		value, want string
	}{
		{"1:1", `flag: OPERATION_PROPORTION = "1:1": has 2 of the 11 fields write:Q1:...:Q10; the missing 9 count as 0 (as in IoT-benchmark): write 1:1:0:0:0:0:0:0:0:0:0 to say so`},
		{"1", "has 1 of the 11 fields"},
		{"1:0:0:0:0:0:0:0:0:0:0", ""},
		{"1:0:0:0:0:0:0:0:0:0:0:0:0", ""},
	}
	for _, tt := range tests {
		c := Default()
		w, err := SetWarn(c, "OPERATION_PROPORTION", tt.value)
		if err != nil {
			t.Fatalf("%s: %v", tt.value, err)
		}
		if (tt.want == "") != (w == "") || !strings.Contains(w, tt.want) {
			t.Errorf("%s: warning %q, want %q", tt.value, w, tt.want)
		}
		if c.Proportion[0] != 1 {
			t.Errorf("%s: proportion %v", tt.value, c.Proportion)
		}
	}
	// The same warning from a file.
	ws, err := loadProps(Default(), "OPERATION_PROPORTION=1:1")
	if err != nil || len(ws) != 1 || !strings.Contains(ws[0], "test.properties:1: OPERATION_PROPORTION") {
		t.Errorf("file: %q %v", ws, err)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"clients", "devices", "ok", "failed", "threshold-failed", "write_path", "layout"}
	tests := []struct{ in, want string }{
		{"clinets", "clients"},
		{"okk", "ok"},
		{"OK", "ok"},
		{"wrte_path", "write_path"},
		{"fialed", "failed"},
		{"xyz", ""},
		{"off", ""}, // short names get one edit only
		{"completely-unrelated", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.in, names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
