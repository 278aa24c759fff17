// Package httpclient builds the HTTP client of the targets that talk to
// their server over HTTP (InfluxDB, VictoriaMetrics, QuestDB, ClickHouse,
// OpenTSDB, KairosDB), and Do, one request with its status checked.
package httpclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
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

// Do sends one request with an optional body and returns the answer's body
// and status. A status other than 2xx is an error naming the method, the URL,
// the status and the answer (trimmed); the body is returned with it so that
// a target can pick its server's message out.
func Do(ctx context.Context, c *http.Client, method, url string, body []byte, header map[string]string) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("%s %s: read answer: %w", method, url, err)
	}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(data))
		if len(msg) > 500 {
			msg = msg[:500] + "..."
		}
		return data, fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, msg)
	}
	return data, nil
}
