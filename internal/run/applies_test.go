package run

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/config"
)

// CLIENT_IO = auto settles on the event loops where they serve the run (a
// query-only run of one's own queries on one postgres server, without TLS,
// on Linux) and says so, else on a goroutine a client, silently; an
// explicit epoll where they do not serve is refused, naming why.
func TestClientIOKeys(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the event loops are Linux's")
	}
	tests := []struct {
		name string
		sets []string
		want string // the CLIENT_IO settled on; "" when refused
		says string // in the note, or in the refusal
	}{
		{"auto, own queries on postgres", nil, "epoll", "CLIENT_IO = auto: event loops serve the clients' connections"},
		{"auto, with writes", []string{"QUERY_ONLY=false"}, "goroutines", ""},
		{"auto, sqlite", []string{"DB_SWITCH=sqlite"}, "goroutines", ""},
		{"auto, TLS", []string{"TLS=insecure"}, "goroutines", ""},
		{"auto, two hosts", []string{"HOST=127.0.0.1,127.0.0.2"}, "goroutines", ""},
		{"auto, tpcc", []string{"WORKLOAD=tpcc", "QUERY_ONLY=false", "QUERY_FILE="}, "goroutines", ""},
		{"goroutines asked", []string{"CLIENT_IO=goroutines"}, "goroutines", ""},
		{"epoll asked", []string{"CLIENT_IO=epoll", "CLIENT_LOOPS=2"}, "epoll", ""},
		{"epoll with TLS", []string{"CLIENT_IO=epoll", "TLS=on"}, "", "CLIENT_IO = epoll: TLS = on: the event loop reads and writes its sockets itself"},
		{"epoll on sqlite", []string{"CLIENT_IO=epoll", "DB_SWITCH=sqlite"}, "", "serves postgres alone"},
		{"loops, auto chose goroutines", []string{"DB_SWITCH=sqlite", "CLIENT_LOOPS=2"}, "",
			"CLIENT_LOOPS = 2: not with CLIENT_IO = goroutines (CLIENT_IO = auto chose it: DB_SWITCH = sqlite"},
		{"loops, goroutines asked", []string{"CLIENT_IO=goroutines", "CLIENT_LOOPS=2"}, "", "CLIENT_LOOPS = 2: not with CLIENT_IO = goroutines: "},
		{"more loops than clients", []string{"CLIENT_LOOPS=5"}, "", "CLIENT_LOOPS = 5: more event loops than clients"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := config.Default()
			for _, kv := range append([]string{"DB_SWITCH=postgres", "QUERY_ONLY=true", "QUERY_FILE=q.yaml", "CLIENT_NUMBER=4"}, tt.sets...) {
				k, v, _ := strings.Cut(kv, "=")
				if err := config.Set(cfg, k, v); err != nil {
					t.Fatal(err)
				}
			}
			var note bytes.Buffer
			err := clientIOKeys(cfg, &note)
			switch {
			case tt.want == "" && (err == nil || !strings.Contains(err.Error(), tt.says)):
				t.Fatalf("%v, want a refusal saying %q", err, tt.says)
			case tt.want != "" && (err != nil || cfg.ClientIO != tt.want):
				t.Fatalf("CLIENT_IO %s (%v), want %s", cfg.ClientIO, err, tt.want)
			case tt.want != "" && !strings.Contains(note.String(), tt.says) || (tt.says == "" && note.Len() > 0):
				t.Fatalf("note %q, want %q", note.String(), tt.says)
			}
		})
	}
}

// A key saying how DATA is read is refused on a run that replays no file,
// on every workload, naming the key and its value; with DATA it is taken.
func TestDataReadingKeysWithoutData(t *testing.T) {
	tests := []struct {
		sets []string
		want string // "" for accepted
	}{
		{[]string{"DATA_DELIMITER=semicolon"}, "DATA_DELIMITER = semicolon: not without DATA: it says how a replayed file is read"},
		{[]string{"DATA_HEADER_ROWS=2"}, "DATA_HEADER_ROWS = 2: not without DATA"},
		{[]string{"DATA_TIME_COLUMN=date,time"}, "DATA_TIME_COLUMN = date,time: not without DATA"},
		{[]string{"DATA_MISSING=+-999"}, "DATA_MISSING = +-999: not without DATA"},
		{[]string{"DATA_TIMEZONE=Europe/Paris"}, "DATA_TIMEZONE = Europe/Paris: not without DATA"},
		{[]string{"DATA_FORMAT=csv", "WORKLOAD=tpcc"}, "DATA_FORMAT = csv: not without DATA"},
		{[]string{"DATA_DUPLICATES=last", "WORKLOAD=prometheus"}, "DATA_DUPLICATES = last: not without DATA"},
		{[]string{"DATA=x.csv", "DATA_DELIMITER=semicolon", "DATA_HEADER_ROWS=2", "DATA_MISSING=+-999"}, ""},
		{[]string{"DATA_SEED=7"}, ""}, // the generator's seed, not a reading key
		{nil, ""},
	}
	for _, tt := range tests {
		cfg := config.Default()
		for _, a := range tt.sets {
			if err := config.SetArg(cfg, a); err != nil {
				t.Fatal(err)
			}
		}
		err := workloadKeys(cfg)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: refused: %v", tt.sets, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: %v, want an error saying %q", tt.sets, err, tt.want)
		}
	}
	// Every key of the group but DATA is covered: the group's name is the
	// one config.Keys gives.
	n := 0
	for _, k := range config.Keys() {
		if k.Group == dataGroup {
			n++
		}
	}
	if n < 15 {
		t.Errorf("%d keys in group %q, want DATA and its reading keys (at least 15)", n, dataGroup)
	}
}
