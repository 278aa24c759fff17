package victoriametrics

import (
	"context"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/targets/httpclient"
)

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's query files):
// the path and its query string unchanged, under the target's API base.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	method, r := httpclient.Written(method, body)
	p, query, _ := strings.Cut(path, "?")
	return t.doInto(ctx, method, p, query, r, nil)
}
