package clickhouse

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/targettest"
)

// Against the real ClickHouse 18.16 server started by
// scripts/services/clickhouse.sh (the conformance suite and the refusal of
// TLS are in conformance_test.go), USERNAME and PASSWORD go as HTTP basic
// authentication: ClickHouse's default user (no password) is let in when
// named, and a wrong password is a clear error naming the target, without
// the password.
func TestBasicAuth(t *testing.T) {
	server.Require(t)
	targettest.CheckPassword(t, Driver, targets.Options{User: "default"}, "wrong-0xBAD", "clickhouse: POST http://127.0.0.1:8124/: 401 Unauthorized", "password")
}

// Every fleet question (TSBS's iot queries) answered by the real server
// agrees with internal/fleet's answer on the fleet dataset.
func TestFleetQuestions(t *testing.T) {
	server.Require(t)
	targettest.FleetQuestions(t, Driver, targets.Options{Database: "tsbench_fleet"})
}
