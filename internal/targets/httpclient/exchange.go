package httpclient

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Exchange sends one request and reads its whole answer: into buf when
// given (a buffer reused between requests, which the returned data then
// aliases), else into a new slice. Header is added to the request's. An
// answer whose status is not 2xx is an error wrapping a *StatusError, with the
// answer's body so that a target can pick its server's message out. The
// errors name the method and the URL without its query (a query's text
// can be long, and an answer's error quotes it anyway); a target adds its
// own name.
func Exchange(ctx context.Context, c *http.Client, method, rawURL string, body io.Reader, header http.Header, buf *bytes.Buffer) ([]byte, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, method, rawURL, body)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", method, withoutQuery(rawURL), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", method, withoutQuery(rawURL), err)
	}
	defer resp.Body.Close()
	if buf == nil {
		buf = new(bytes.Buffer)
	}
	buf.Reset()
	_, err = buf.ReadFrom(resp.Body)
	data := buf.Bytes()
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: read answer: %w", method, withoutQuery(rawURL), err)
	}
	if resp.StatusCode/100 != 2 {
		return data, resp.Header, fmt.Errorf("%s %s: %w", method, withoutQuery(rawURL), &StatusError{Code: resp.StatusCode, Text: trimAnswer(data)})
	}
	return data, resp.Header, nil
}

// maxAnswerText bounds the server's text in an error: enough for a
// database's own exception (ClickHouse names its error code last).
const maxAnswerText = 2000

func trimAnswer(body []byte) string {
	msg := strings.TrimSpace(string(body))
	if len(msg) > maxAnswerText {
		msg = msg[:maxAnswerText] + "..."
	}
	return msg
}

func withoutQuery(rawURL string) string {
	u, _, _ := strings.Cut(rawURL, "?")
	return u
}
