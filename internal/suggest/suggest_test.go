package suggest

import "testing"

func TestClosest(t *testing.T) {
	names := []string{"INGESTION", "TIME_RANGE", "off", "on", "write_path"}
	tests := []struct{ in, want string }{
		{"INGESTON", "INGESTION"},
		{"ingestion", "INGESTION"},
		{"time_rnage", "TIME_RANGE"},
		{"wrte_path", "write_path"},
		{"ok", "on"},     // one edit
		{"onn", "on"},    // short names allow one edit
		{"offff", "off"}, // two edits: allowed from five letters on
		{"xyz", ""},
	}
	for _, tt := range tests {
		if got := Closest(tt.in, names); got != tt.want {
			t.Errorf("Closest(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if d := Distance("kitten", "sitting"); d != 3 {
		t.Errorf("Distance = %d, want 3", d)
	}
}
