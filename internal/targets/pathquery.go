package targets

import "context"

// PathQuerier is implemented by HTTP targets that send a request as another
// tool wrote it: a method, a path with its query string (relative to the
// server's API root, as in /api/v1/query_range?query=...) and a body,
// answering the whole body of a 2xx answer. TSBS's HTTP query files
// (--tsbs-queries) run through it unchanged.
type PathQuerier interface {
	QueryPath(ctx context.Context, method, path string, body []byte) ([]byte, error)
}
