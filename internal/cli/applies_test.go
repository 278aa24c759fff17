package cli

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
