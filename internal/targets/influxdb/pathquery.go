package influxdb

import (
	"context"
	"net/url"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's influx query
// files: /query?q=...). The path names no database, which TSBS's influx
// runner adds as db= (its --db-name): the target's database is added the
// same way, unless the path names one.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	method, r := httpclient.Written(method, body)
	if _, query, _ := strings.Cut(path, "?"); !parseQuery(query).Has("db") {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "db=" + url.QueryEscape(t.db)
	}
	data, _, err := t.do(ctx, method, path, r, nil)
	return data, err
}

// parseQuery is a URL's query parameters; an unparsable query has none.
func parseQuery(q string) url.Values {
	v, err := url.ParseQuery(q)
	if err != nil {
		return url.Values{}
	}
	return v
}
