package output

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// HTTPClient is an HTTP receiver's whole transport: a receiver embeds it
// and posts each batch with Post; its Close is the receiver's.
type HTTPClient struct {
	client *http.Client
}

// NewHTTPClient is the transport of an HTTP receiver: bounded connection
// and answer times, so a receiver that never answers costs a send timeout
// and no more.
func NewHTTPClient() HTTPClient {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 10 * time.Second
	t.MaxIdleConnsPerHost = 2
	return HTTPClient{client: &http.Client{Transport: t, Timeout: 30 * time.Second}}
}

// Close releases the idle connections.
func (h HTTPClient) Close(context.Context) error {
	h.client.CloseIdleConnections()
	return nil
}

// Post sends one request body to a receiver's URL and reads the answer. A
// status other than 2xx is an error that quotes the start of the answer.
// The URL's password never appears in an error.
func (h HTTPClient) Post(ctx context.Context, rawURL string, body []byte, header http.Header) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rawURL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("post %s: %w", Redact(rawURL), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if u := req.URL.User; u != nil { // user:password@ in the URL: basic auth, not sent in the URL
		pw, _ := u.Password()
		req.SetBasicAuth(u.Username(), pw)
		req.URL.User = nil
	}
	resp, err := h.client.Do(req)
	if err != nil {
		if uerr := (*url.Error)(nil); errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("post %s: %w", Redact(rawURL), err)
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("post %s: %s: %s", Redact(rawURL), resp.Status, bytes.TrimSpace(msg))
	}
	return nil
}

// Redact masks the password of a URL.
func Redact(rawURL string) string {
	if u, err := url.Parse(rawURL); err == nil {
		return u.Redacted()
	}
	return "(bad URL)"
}
