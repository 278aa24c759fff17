package questdb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
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

// QuestDB's open-source server has TLS on neither port: TLS asked of the
// target is targets.ErrNoTLS, never a plaintext connection — from the PG
// wire, which the target opens first, and from the HTTP port too.
func TestNoTLS(t *testing.T) {
	targettest.RequireServer(t, "questdb", "127.0.0.1:8812")
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
	targettest.RequireServer(t, "questdb", "127.0.0.1:8812")
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
	var last ts.Sensor
	last = d.Schema.Sensors[len(d.Schema.Sensors)-1] // an INT64 column: every row has it
	if err := pg.QueryRow(ctx, `SELECT count(`+last.Name+`) FROM "`+d.Schema.Groups[0]+`"`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if int64(sum) != want/2 {
		t.Fatalf("%s of %s has %v values, want %d", last.Name, d.Schema.Groups[0], sum, want/2)
	}
}
