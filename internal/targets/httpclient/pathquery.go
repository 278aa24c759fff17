package httpclient

import (
	"bytes"
	"io"
	"net/http"
)

// Written is a request's method and body as another tool wrote them
// (targets.PathQuerier): GET where it names no method, no body where its
// body is empty.
func Written(method string, body []byte) (string, io.Reader) {
	if method == "" {
		method = http.MethodGet
	}
	if len(body) == 0 {
		return method, nil
	}
	return method, bytes.NewReader(body)
}
