package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/testenv/fault"
)

// A stall injected into a run is listed: VictoriaMetrics is frozen
// (SIGSTOP) for 4 s in the middle of a 12 s open-model run at 200
// operations per second. The run lists exactly one stall where the freeze
// was, about as long, holding about the operations due in it (from one
// second after its start: the per-second series can only be sure of
// operations that ended more than a second after it), and says so.
func TestStallIsListed(t *testing.T) {
	testenv.Alone(t)
	const (
		rate   = 200.0
		freeze = 4 * time.Second
	)
	requireTargetServer(t, "victoriametrics")
	svc := fault.Find(t, "victoriametrics")
	fs := &faultServer{target: "victoriametrics", service: "victoriametrics", addr: "127.0.0.1:8428", db: "stall_list"}
	fs.reset(t)
	fr := startRun(t, "--target", "victoriametrics", "--rate", fmt.Sprint(rate), "--duration", "12s",
		"--clients", "4", "--devices", "4", "--sensors", "10", "--batch-size", "1", "--set", "DB_NAME=stall_list",
		"--set", "OPERATION_PROPORTION=1:0:0:0:0:0:0:0:0:0:0", "--set", "INSERT_DATATYPE_PROPORTION=0:0:0:0:1:0")
	fr.waitWriting(t, fs)
	time.Sleep(3 * time.Second)
	frozeAt := time.Now()
	stall := svc.Freeze(t, freeze)
	code, s := fr.wait(t, time.Minute)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, fr.output())
	}
	if len(s.Stalls) != 1 {
		t.Fatalf("%d stalls listed, want the one injected: %+v\n%s", len(s.Stalls), s.Stalls, fr.output())
	}
	got := s.Stalls[0]
	at := frozeAt.Sub(s.MeasureStarted).Seconds()
	t.Logf("froze at %.1f s for %v; listed %+v", at, stall, got)
	sec := stall.Seconds()
	if got.Start < at-1.5 || got.Start > at+1.5 {
		t.Errorf("stall listed at %.1f s, the server froze at %.1f s", got.Start, at)
	}
	if got.Seconds < sec-1.5 || got.Seconds > sec+1.5 {
		t.Errorf("stall of %.1f s listed, the server froze for %.1f s", got.Seconds, sec)
	}
	if lo, hi := int64(rate*(sec-1)*0.8), int64(rate*(sec+2)); got.HeldOperations < lo || got.HeldOperations > hi {
		t.Errorf("%d operations held, want %d..%d (%.0f per second were due)", got.HeldOperations, lo, hi, rate)
	}
	if got.MaxMS < 0.9*float64(stall.Milliseconds()) || got.AtEnd {
		t.Errorf("longest held %.0f ms (the freeze lasted %v), at end %v", got.MaxMS, stall, got.AtEnd)
	}
	if !strings.Contains(fr.stdout.String(), "Stalls: 1, holding ") {
		t.Errorf("the console does not list the stall:\n%s", fr.stdout.String())
	}
}
