// Package httpclient builds the HTTP client of the targets that talk to
// their server over HTTP (InfluxDB, VictoriaMetrics, QuestDB, ClickHouse).
package httpclient

import (
	"net"
	"net/http"
	"time"
)

// New returns a client for one benchmark client's requests: connections are
// kept alive (a handshake per request would be measured, not the server),
// never go through a proxy, and keep Go's TCP_NODELAY — whose absence in
// IoT-benchmark's InfluxDB client stalls every request by ~40 ms. Bodies are
// not compressed unless a target asks for it itself.
func New() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:               nil,
		DialContext:         (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 4,
		DisableCompression:  true,
	}}
}
