package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// compareGoTPC runs go-tpc's TPC-C and tsbench's, each on a database it
// loaded just before its turn, taking turns: tsbench in interactive mode
// (one statement per round trip, as go-tpc runs), or with --mode batched
// in its own (a transaction's statements sent together).
//
// long: its flags, then the two tools' turns in the order the note gives them
func compareGoTPC(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("go-tpc", flag.ContinueOnError)
	fs.SetOutput(stderr)
	goTPCPath := fs.String("go-tpc", "", "go-tpc's path (default: on PATH)")
	tsbenchPath := fs.String("tsbench", "", "tsbench's path (default: beside this command, else on PATH)")
	host := fs.String("host", "127.0.0.1", "the server's host")
	port := fs.Int("port", 5433, "the server's port")
	user := fs.String("user", "postgres", "the user (no password: trust)")
	warehouses := fs.Int("warehouses", 2, "warehouses (W)")
	terminals := fs.Int("terminals", 4, "terminals of each tool")
	duration := fs.Duration("duration", 45*time.Second, "each turn's measured length")
	turns := fs.Int("turns", 2, "turns each tool takes")
	mode := fs.String("mode", "interactive", "tsbench's TPC-C mode: interactive (go-tpc's) or batched")
	var extra repeated
	fs.Var(&extra, "tsbench-arg", "an argument more for tsbench run (repeatable), e.g. --tsbench-arg=--set --tsbench-arg=KEY=VALUE")
	if err := fs.Parse(args); err != nil {
		return usage{err.Error()}
	}
	if err := checkMode(*mode, extra); err != nil {
		return err
	}
	gotpc, err := findTool(*goTPCPath, "go-tpc")
	if err != nil {
		return err
	}
	tsb, err := tsbenchBinary(*tsbenchPath)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "tsbench-peers-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	admin := fmt.Sprintf("postgres://%s@%s:%d/postgres?sslmode=disable", *user, *host, *port)
	conn := []string{"-d", "postgres", "-H", *host, "-P", strconv.Itoa(*port), "-U", *user, "-D", "peers_gotpc",
		"--conn-params", "sslmode=disable", "--warehouses", strconv.Itoa(*warehouses)}
	peer := func() (measurement, error) {
		if err := freshDatabase(admin, "peers_gotpc"); err != nil {
			return measurement{}, err
		}
		if _, _, err := child(dir, stderr, gotpc, append(append([]string{"tpcc", "prepare"}, conn...), "-T", "2", "--no-check")...); err != nil {
			return measurement{}, err
		}
		out, cpu, err := child(dir, stderr, gotpc, append(append([]string{"tpcc", "run"}, conn...),
			"-T", strconv.Itoa(*terminals), "--time", duration.String(), "--isolation", "2")...)
		if err != nil {
			return measurement{}, err
		}
		return goTPCResult(string(out), cpu, *duration)
	}
	ours := func() (measurement, error) {
		if err := freshDatabase(admin, "peers_tsbench"); err != nil {
			return measurement{}, err
		}
		url := fmt.Sprintf("postgres://%s@%s:%d/peers_tsbench?sslmode=disable", *user, *host, *port)
		s, _, err := tsbenchRun(tsb, dir, stderr, append([]string{"--workload", "tpcc", "--target", "postgres", "--target-url", url,
			"--warehouses", strconv.Itoa(*warehouses), "--clients", strconv.Itoa(*terminals), "--duration", duration.String(),
			"--set", "TPCC_MODE=" + *mode, "--set", "TPCC_LOAD=always"}, extra...)...)
		if err != nil {
			return measurement{}, err
		}
		var all int64
		for _, o := range s.Operations {
			all += o.OKOperations
		}
		// The load ran in the same process: the measured phase's CPU
		// alone is the terminals'.
		return measurement{Rate: s.TPCC.TpmC, Ops: all, CPU: time.Duration(s.Tool.MeasuredCPUSeconds * float64(time.Second))}, nil
	}
	peers, tsbs, err := takeTurns(*turns, stderr, "go-tpc", peer, ours)
	if err != nil {
		return err
	}
	writeTable(stdout, fmt.Sprintf("TPC-C, go-tpc against tsbench %s, W=%d, %d terminals, %v a turn, READ COMMITTED", *mode, *warehouses, *terminals, *duration),
		"go-tpc", peers, tsbs, []column{
			{"tpmC", func(m measurement) float64 { return m.Rate }, "%.0f"},
			{"CPU ms/transaction", func(m measurement) float64 { return m.cpuPerOp() / 1000 }, "%.3f"},
		})
	return nil
}

// checkMode refuses a mode tsbench has not, and a mode set a second way
// (--tsbench-arg=TPCC_MODE=...), which the table's title would not name.
func checkMode(mode string, extra repeated) error {
	if mode != "interactive" && mode != "batched" {
		return usage{fmt.Sprintf("--mode %q: allowed: interactive, batched", mode)}
	}
	for _, a := range extra {
		if strings.Contains(a, "TPCC_MODE") {
			return usage{fmt.Sprintf("--tsbench-arg %q: tsbench's TPC-C mode is --mode's (interactive or batched)", a)}
		}
	}
	return nil
}

// goTPCSummary is the line go-tpc's tpcc run ends with.
var goTPCSummary = regexp.MustCompile(`tpmC: ([0-9.]+), tpmTotal: ([0-9.]+)`)

// goTPCResult reads tpmC and tpmTotal from go-tpc's output; its
// transactions are tpmTotal over the turn's minutes.
func goTPCResult(out string, cpu, d time.Duration) (measurement, error) {
	m := goTPCSummary.FindStringSubmatch(out)
	if m == nil {
		return measurement{}, fmt.Errorf("go-tpc printed no tpmC: %s", lastLine(out))
	}
	tpmC, _ := strconv.ParseFloat(m[1], 64)
	total, _ := strconv.ParseFloat(m[2], 64)
	return measurement{Rate: tpmC, Ops: int64(total * d.Minutes()), CPU: cpu}, nil
}

// freshDatabase drops database db and creates it empty.
func freshDatabase(adminURL, db string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pg, err := pgx.Connect(ctx, adminURL)
	if err != nil {
		return err
	}
	defer pg.Close(ctx)
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + db + " WITH (FORCE)", "CREATE DATABASE " + db} {
		if _, err := pg.Exec(ctx, sql); err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
	}
	return nil
}
