package victoriametrics

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

var _ targets.PathQuerier = (*Target)(nil)

// QueryPath sends a request as another tool wrote it (TSBS's query files):
// the path and its query string unchanged, under the target's API base.
func (t *Target) QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error) {
	if method == "" {
		method = http.MethodGet
	}
	p, query, _ := strings.Cut(path, "?")
	var r io.Reader
	if len(body) > 0 {
		r = bytes.NewReader(body)
	}
	return t.doInto(ctx, method, p, query, r, nil)
}
