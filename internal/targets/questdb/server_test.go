package questdb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
	"github.com/tsbench/tsbench/internal/targets/influxdb"
	"github.com/tsbench/tsbench/internal/targets/targettest"
	"github.com/tsbench/tsbench/internal/testenv"
	"github.com/tsbench/tsbench/internal/ts"
)

// The tests against the real QuestDB server started by
// scripts/services/questdb.sh.
var server = targettest.Server{Name: "questdb", Addr: "127.0.0.1:8812"}

// The target passes the conformance suite against the real server.
func TestConformance(t *testing.T) {
	server.Conformance(t, targettest.Suite{Driver: Driver, Options: targets.Options{Database: "tsbench_conformance"},
		Settle: func(ctx context.Context, conn targets.Target) error {
			q := conn.(*Target)
			q.mu.Lock()
			defer q.mu.Unlock()
			_, err := q.settled(ctx)
			return err
		}}, nil)
}

// QuestDB's open-source server has TLS on neither port: TLS asked of the
// target is targets.ErrNoTLS, never a plaintext connection — from the PG
// wire, which the target opens first, and from the HTTP port too.
func TestNoTLS(t *testing.T) {
	server.Require(t)
	ca := testenv.WriteCerts(t, t.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tls := targets.TLS{Mode: "on", CAFile: ca}
	if _, err := Driver.Open(ctx, targets.Options{TLS: tls}); !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("PG wire: error %v, want targets.ErrNoTLS", err)
	}
	e, err := httpclient.NewEndpoint(targets.Options{TLS: tls}, DefaultHTTPPort)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := httpclient.Do(ctx, e.Client(), http.MethodGet, e.Base+"/ping", nil, nil); !errors.Is(err, targets.ErrNoTLS) {
		t.Fatalf("HTTP: error %v, want targets.ErrNoTLS", err)
	}
}

// QuestDB takes InfluxDB 2.x's write API: the influxdb target's
// write_path=v2 writes the conformance dataset to its HTTP port (org and
// bucket, which QuestDB ignores, and a token, which an open-source QuestDB
// without authentication ignores), and QuestDB's SQL counts every row.
func TestInfluxV2Write(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	d, err := targettest.NewDataset(Driver.Caps.Types, time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC).UnixMilli())
	if err != nil {
		t.Fatal(err)
	}
	prefix := fmt.Sprintf("v2write_%d", time.Now().UnixNano())
	for i := range d.Schema.Groups {
		d.Schema.Groups[i] = prefix + "_" + d.Schema.Groups[i]
	}
	d.OpenAndWrite(ctx, t, influxdb.Driver, targets.Options{Port: DefaultHTTPPort, Token: "unused-by-open-source-questdb",
		Extra: map[string]string{"write_path": "v2", "org": "o", "bucket": "b"}})
	cfg, err := pgx.ParseConfig("host=127.0.0.1 port=8812 user=admin password=quest dbname=qdb sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec
	pg, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(context.Background())
	defer func() {
		for _, g := range d.Schema.Groups {
			pg.Exec(context.Background(), `DROP TABLE IF EXISTS "`+g+`"`)
		}
	}()
	want := int64(len(d.Schema.Devices)) * d.Points() / int64(len(d.Schema.Devices)*len(d.Schema.Sensors))
	var got int64
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		got = 0
		for _, g := range d.Schema.Groups {
			var n int64
			if err := pg.QueryRow(ctx, `SELECT count() FROM "`+g+`"`).Scan(&n); err != nil {
				n = 0 // the table appears once its first rows are applied
			}
			got += n
		}
		if got >= want {
			break
		}
	}
	if got != want {
		t.Fatalf("QuestDB holds %d rows, want %d", got, want)
	}
	var sum float64
	last := d.Schema.Sensors[len(d.Schema.Sensors)-1] // an INT64 column: every row has it
	if err := pg.QueryRow(ctx, `SELECT count(`+last.Name+`) FROM "`+d.Schema.Groups[0]+`"`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if int64(sum) != want/2 {
		t.Fatalf("%s of %s has %v values, want %d", last.Name, d.Schema.Groups[0], sum, want/2)
	}
}

// A BOOLEAN sensor keeps its one-byte BOOLEAN column while every cell has a
// value, and becomes a nullable INT column when the first empty cell
// arrives: the empty cell is then no point (Count, LATEST_POINT), and the
// values written before read the same (1 and 0).
func TestSparseBoolean(t *testing.T) {
	server.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{Database: "tsbench_sparsebool"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	q := conn.(*Target)
	s := &ts.Schema{Groups: []string{"g"}, Devices: []ts.Device{{Name: "d_0"}},
		Sensors: []ts.Sensor{{Name: "b", Type: ts.Boolean}, {Name: "x", Type: ts.Double}}}
	if err := conn.Setup(ctx, s, true); err != nil {
		t.Fatal(err)
	}
	colType := func() string {
		t.Helper()
		q.mu.Lock()
		defer q.mu.Unlock()
		if _, err := q.settled(ctx); err != nil { // table_columns() shows what was applied
			t.Fatal(err)
		}
		typ, err := q.columnType(ctx, "tsbench_sparsebool_g", "b")
		if err != nil {
			t.Fatal(err)
		}
		return typ
	}
	batch := func(t0 int64) *ts.Batch {
		return &ts.Batch{Device: &s.Devices[0], Times: []int64{t0, t0 + 1000}, Columns: []ts.Column{
			{Type: ts.Boolean, Bools: []bool{true, false}}, {Type: ts.Double, Doubles: []float64{1, 2}}}}
	}
	if err := conn.Write(ctx, batch(1_000_000)); err != nil {
		t.Fatal(err)
	}
	if typ := colType(); typ != "BOOLEAN" {
		t.Fatalf("after a dense batch the column is %s, want BOOLEAN", typ)
	}
	sparse := batch(2_000_000)
	sparse.Columns[0].Bools[1] = false
	sparse.MarkNull(0, 1) // the last row has x only
	if err := conn.Write(ctx, sparse); err != nil {
		t.Fatal(err)
	}
	if typ := colType(); typ != "INT" {
		t.Fatalf("after an empty BOOLEAN cell the column is %s, want INT", typ)
	}
	n, err := conn.Count(ctx, ts.CountRange{})
	if err != nil {
		t.Fatal(err)
	}
	if n != 7 {
		t.Fatalf("Count = %d, want 7 (8 cells, 1 empty)", n)
	}
	for _, tc := range []struct {
		sensor int
		want   float64
	}{{0, 1}, {1, 2}} { // b's last value is the sparse batch's first row
		r, err := conn.Query(ctx, &ts.Query{Kind: ts.LatestPoint, Devices: []*ts.Device{&s.Devices[0]}, Sensors: []int{tc.sensor}})
		if err != nil {
			t.Fatal(err)
		}
		if r.Points != 1 || r.Sum != tc.want {
			t.Fatalf("LATEST_POINT of %s: %d points summing %v, want 1 point %v", s.Sensors[tc.sensor].Name, r.Points, r.Sum, tc.want)
		}
	}
	r, err := conn.Query(ctx, &ts.Query{Kind: ts.TimeRange, Devices: []*ts.Device{&s.Devices[0]}, Sensors: []int{0},
		Start: 0, End: 3_000_000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Points != 3 || r.Sum != 2 { // true, false, true
		t.Fatalf("TIME_RANGE of b: %d points summing %v, want 3 summing 2", r.Points, r.Sum)
	}
}

// columnType is the type QuestDB reports (once applied) for a column of a table.
func (t *Target) columnType(ctx context.Context, tbl, name string) (string, error) {
	rows, err := t.conn.Query(ctx, "SELECT \"column\", type FROM table_columns('"+strings.ReplaceAll(tbl, "'", "''")+"')")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	typ := ""
	for rows.Next() {
		var c, ty string
		if err := rows.Scan(&c, &ty); err != nil {
			return "", err
		}
		if strings.EqualFold(c, name) {
			typ = ty
		}
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	if typ == "" {
		return "", fmt.Errorf("no column %q in table %s", name, tbl)
	}
	return typ, nil
}

// TSBS's iot questions, answered by QuestDB's SQL on the real server
// (FleetQuery), agree with internal/fleet's answers over the generated
// data: every kind, every fleet, TSBS's windows at three places.
func TestFleetQuestions(t *testing.T) {
	server.Require(t)
	targettest.FleetQuestions(t, Driver, targets.Options{Database: "tsbench_fleet"})
}
