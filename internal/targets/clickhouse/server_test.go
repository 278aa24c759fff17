package clickhouse

import (
	"context"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// Against the real ClickHouse 18.16 server started by
// scripts/services/clickhouse.sh (the conformance suite and the refusal of
// TLS are internal/targets/all's), USERNAME and PASSWORD go as HTTP basic authentication: ClickHouse's
// default user (no password) is let in when named, and a wrong password is
// a clear error naming the target, without the password.
func TestBasicAuth(t *testing.T) {
	targettest.RequireServer(t, "clickhouse", "127.0.0.1:8124")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := Driver.Open(ctx, targets.Options{User: "default"})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	_, err = Driver.Open(ctx, targets.Options{User: "default", Password: "wrong-0xBAD"})
	targettest.CheckAuthRefused(t, err, "wrong-0xBAD", "clickhouse: http://127.0.0.1:8124/", "password")
}
