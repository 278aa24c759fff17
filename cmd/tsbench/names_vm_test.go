package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/tsbs"
)

// verifyOK is the console's verification line of a run whose stored
// points and answers agree.
var verifyOK = regexp.MustCompile(`(?m)^Verify: .*\bOK\b`)

// TSBS's own cpu-only files hold host tags with dots ("Ubuntu16.04LTS"):
// replayed into both VictoriaMetrics releases, every point is stored and
// every checked answer agrees. Without DATA_DEVICE_COLUMNS a device is
// named by all its tags joined, dots and commas included, and every query
// naming it was refused with 422 (issue 50: the regexp's `\.` inside a
// MetricsQL string); with DATA_DEVICE_COLUMNS=hostname the dotted tags are
// labels only.
func TestTSBSDataFileNamesVictoriaMetrics(t *testing.T) {
	inParallel(t)
	const hosts, rows = 4, 60
	files := writeTSBSCPUFiles(t, hosts, rows, "2016-01-01T00:10:00Z")
	for _, format := range tsbs.DataFormats {
		if !strings.Contains(testenv.ReadText(t, files[format]), "Ubuntu16.04LTS") {
			t.Fatalf("the %s file holds no host tag with a dot: the test checks nothing", format)
		}
	}
	for _, vm := range vmReleases {
		t.Run(vm.service, func(t *testing.T) {
			targettest.RequireServer(t, vm.service, "127.0.0.1:"+vm.port)
			for _, devices := range []string{"", "hostname"} {
				for _, format := range tsbs.DataFormats {
					t.Run(format+"/devices="+devices, func(t *testing.T) {
						replayVerified(t, vm.port, files[format], devices, hosts*rows*len(tsbs.CPUFields))
					})
				}
			}
		})
	}
}

// replayVerified replays file into the VictoriaMetrics on port, its
// devices named by the columns devices ("": the default, every tag), and
// requires want points stored, every checked answer agreeing and the
// console's verification line to end OK.
func replayVerified(t *testing.T, port, file, devices string, want int) {
	t.Helper()
	s, stdout := runVerified(t, "--target", "victoriametrics", "--set", "PORT="+port, "--data", file,
		"--set", "DATA_DEVICE_COLUMNS="+devices, "--set", "DB_NAME=tsbench_tsbs_names", "--results", "off")
	if s.Verify.StoredPoints != int64(want) {
		t.Fatalf("stored %d points, want %d", s.Verify.StoredPoints, want)
	}
	if len(s.Verify.Queries) == 0 || s.Verify.Mismatch() {
		t.Fatalf("query answers: %+v\n%s", s.Verify.Queries, tail(stdout, 10))
	}
	if !verifyOK.MatchString(stdout) {
		t.Fatalf("no verification line ending OK:\n%s", tail(stdout, 15))
	}
}
