package config

import (
	"strings"
	"testing"
)

func yamlConfig(t *testing.T, text string) (*Config, []string, error) {
	t.Helper()
	c := Default()
	w, err := LoadYAML(c, strings.NewReader(text), "f.yaml")
	return c, w, err
}

// Both vocabularies name one setting; a file giving it under both names is
// refused naming both, whichever comes first.
func TestTwoNamesOfOneSetting(t *testing.T) {
	tests := []struct{ text, want string }{
		{"clients: 4\nclient_number: 8\n", "client_number and clients (at f.yaml:1) are two names of one setting (CLIENT_NUMBER)"},
		{"DEVICE_NUMBER: 8\ndevices: 4\n", "devices and DEVICE_NUMBER (at f.yaml:1)"},
		{"batch-size: 4\nbatch_size_per_write: 8\n", "batch_size_per_write and batch-size"},
		{"duration: 5s\ntest_max_time: 5000\n", "test_max_time and duration (at f.yaml:1) are two names of one setting (TEST_MAX_TIME)"},
		{"operations: {write: 1}\noperation_proportion: '1:1'\n", "operation_proportion and operations"},
		{"no_check: true\nquery_checks: 3\n", "query_checks and no_check"},
	}
	for _, tt := range tests {
		_, _, err := yamlConfig(t, tt.text)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.text, err, tt.want)
		}
	}
	// IoT-benchmark's own pair stays a warning, as its files carry both.
	c := Default()
	if _, err := LoadProperties(c, strings.NewReader("CLIENT_NUMBER=2\nDATA_CLIENT_NUMBER=3\n"), "p"); err != nil || c.Clients != 3 {
		t.Errorf("CLIENT_NUMBER and DATA_CLIENT_NUMBER: %v, clients %d; want 3", err, c.Clients)
	}
}

func TestProportionMappings(t *testing.T) {
	tests := []struct {
		text      string
		ops       [11]int64
		types     [6]int64
		wantError string
	}{
		{text: "operations: {write: 1, Q1: 1, Q7: 2}", ops: [11]int64{1, 1, 0, 0, 0, 0, 0, 2}},
		{text: "operations: {INGESTION: 3, precise_point: 1, time_range: 2, q10: 1}", ops: [11]int64{3, 1, 2, 0, 0, 0, 0, 0, 0, 0, 1}},
		{text: "operations: {Write: 0.5, Q2: 0.25}", ops: [11]int64{2, 0, 1}},
		{text: "operations: {write: 1, Q11: 0}", ops: [11]int64{1}},
		{text: "operation_proportion: {write: 1, LATEST_POINT: 1}", ops: [11]int64{1, 0, 0, 0, 0, 0, 0, 0, 1}},
		{text: "types: {DOUBLE: 1, INT32: 1}", types: [6]int64{0, 1, 0, 0, 1}},
		{text: "insert_datatype_proportion: {boolean: 2, text: 1}", types: [6]int64{2, 0, 0, 0, 0, 1}},
		{text: "operations: {write: 1, Q13: 1}", wantError: `OPERATION_PROPORTION = "Q13": no such name in the mapping (did you mean Q1?)`},
		{text: "operations: {wrte: 1}", wantError: "did you mean write?"},
		{text: "operations: {Q1: 1, PRECISE_POINT: 2}", wantError: "names the same field as Q1: keep one"},
		{text: "operations: {write: 0}", wantError: "all weights are 0"},
		{text: "operations: {Q12: 1}", wantError: "Q12 (SET_OPERATION) must have weight 0"},
		{text: "operations: {write: [1]}", wantError: "each name takes one weight"},
		{text: "types: {DOUBL: 1}", wantError: `INSERT_DATATYPE_PROPORTION = "DOUBL": no such name in the mapping (did you mean DOUBLE?)`},
		{text: "types: {DOUBLE: 1, BLOB: 1}", wantError: "STRING:BLOB:TIMESTAMP:DATE:OBJECT must be 0"},
	}
	for _, tt := range tests {
		c, warnings, err := yamlConfig(t, tt.text+"\n")
		if tt.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("%s: %v, want %q", tt.text, err, tt.wantError)
			}
			continue
		}
		if err != nil || len(warnings) > 0 {
			t.Errorf("%s: %v %q", tt.text, err, warnings)
			continue
		}
		if tt.ops != ([11]int64{}) && c.Proportion != tt.ops {
			t.Errorf("%s: proportion %v, want %v", tt.text, c.Proportion, tt.ops)
		}
		if tt.types != ([6]int64{}) && c.TypeProportion != tt.types {
			t.Errorf("%s: types %v, want %v", tt.text, c.TypeProportion, tt.types)
		}
	}
}

// Did-you-mean knows both vocabularies, answering in the one asked in.
func TestSuggestBothVocabularies(t *testing.T) {
	for name, want := range map[string]string{
		"devics": "devices", "batch_sise": "batch_size", "clinets": "clients", "duraton": "duration",
		"device_numbr": "device_number", "CLIENT_NUMBR": "CLIENT_NUMBER", "operatons": "operations",
		"oepration_proportion": "operation_proportion", "warmpu": "warmup", "taget": "target",
	} {
		if got := Suggest(name); got != want {
			t.Errorf("Suggest(%s) = %q, want %q", name, got, want)
		}
	}
	_, _, err := yamlConfig(t, "devics: 4\n")
	if err == nil || !strings.Contains(err.Error(), "did you mean devices?") {
		t.Errorf("devics in a file: %v", err)
	}
	_, _, err = yamlConfig(t, "sensor_numbr: 4\n")
	if err == nil || !strings.Contains(err.Error(), "did you mean sensor_number?") {
		t.Errorf("sensor_numbr in a file: %v", err)
	}
}

// Print writes tsbench's vocabulary, and what it writes reads back to the
// same configuration, printed the same.
func TestPrintOwnVocabularyRoundTrip(t *testing.T) {
	for _, text := range []string{
		"",
		"target: \"null\"\nclients: 3\ndevices: 7\nduration: 9s\noperations: {write: 1, Q1: 1, Q7: 2}\ntypes: {DOUBLE: 1, INT32: 1}\n",
		"test_max_time: 4000\nloop: 50\nno_check: true\nthreshold: ['INGESTION.p99<50ms']\n",
		"duration: 1m\nloop: 20\n",
	} {
		c, _, err := yamlConfig(t, text)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if err := Resolve(c); err != nil {
			t.Fatal(err)
		}
		c.Password = "" // shown as ***, which reads back as itself
		var first strings.Builder
		if err := Print(c, &first); err != nil {
			t.Fatal(err)
		}
		out := first.String()
		for _, want := range []string{"\ntarget: ", "\nclients: ", "\ndevices: ", "\nbatch_size: ", "\noperations:\n", "\ntypes:\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("%q: Print lacks %q:\n%s", text, want, out)
			}
		}
		back, warnings, err := yamlConfig(t, out)
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%q: reading Print's output back: %v %q\n%s", text, err, warnings, out)
		}
		if err := Resolve(back); err != nil {
			t.Fatal(err)
		}
		assertSameConfig(t, back, c)
		var second strings.Builder
		if err := Print(back, &second); err != nil {
			t.Fatal(err)
		}
		if second.String() != out {
			t.Errorf("%q: printed again, it differs:\n%s\n---\n%s", text, out, second.String())
		}
	}
}
