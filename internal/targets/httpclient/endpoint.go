package httpclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tsbench/tsbench/internal/arrival"
	"github.com/tsbench/tsbench/internal/targets"
)

// Endpoint is where and how an HTTP target reaches its server: the scheme,
// host and port, the TLS settings (TLS and TLS_* keys) and the
// Authorization header every request carries.
type Endpoint struct {
	Base string // "http://host:port", or "https://host:port" with TLS, and the path prefix of Options.Path
	// Root is Base without the path prefix: where a server's own
	// endpoints are (/health, /metrics), whatever route its API has.
	Root string
	TLS  *tls.Config // nil: plain HTTP
	// Authorization is the value of the Authorization header set on every
	// request (Basic, Token or Bearer); empty: none. A secret: it never goes
	// into a message.
	Authorization string

	host string
}

// NewEndpoint is the endpoint of o's server (HOST and PORT, defaultPort
// where PORT is unset): https when TLS is on or insecure, with the
// certificate checks TLS.Config makes; no authentication (the target sets
// it as its server does it).
func NewEndpoint(o targets.Options, defaultPort int) (Endpoint, error) {
	host, port := o.HostPort(defaultPort)
	e, err := endpointFor(o.TLS, host, port)
	if err != nil {
		return e, err
	}
	// The path of a TARGET_URL goes in front of every request path: a
	// VictoriaMetrics cluster's /insert/0/prometheus, a proxy's route.
	e.Root = e.Base
	e.Base += strings.TrimSuffix(o.Path, "/")
	return e, nil
}

func endpointFor(t targets.TLS, host string, port int) (Endpoint, error) {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	cfg, err := t.Config(host)
	if err != nil {
		return Endpoint{}, err
	}
	if cfg == nil {
		return Endpoint{Base: "http://" + addr, host: host}, nil
	}
	return Endpoint{Base: "https://" + addr, TLS: cfg, host: host}, nil
}

// Port is the endpoint for the same host and TLS on another port (QuestDB's
// HTTP port beside its PG wire).
func (e Endpoint) Port(port int) Endpoint {
	scheme := "http://"
	if e.TLS != nil {
		scheme = "https://"
	}
	e.Base = scheme + net.JoinHostPort(e.host, strconv.Itoa(port))
	e.Root = e.Base
	return e
}

// Basic is the Authorization value of HTTP basic authentication.
func Basic(user, password string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
}

// Client is a client (see New) for the endpoint: over TLS when it has
// TLS, with its Authorization header on every request.
func (e Endpoint) Client() *http.Client {
	c := New()
	t := c.Transport.(*countingTransport)
	t.base.TLSClientConfig = e.TLS
	t.auth = e.Authorization
	if e.TLS != nil {
		// The handshake is made here rather than by net/http so that its
		// failures, and only they, are read as handshake failures
		// (handshakeError): a connection closed later is a transient error.
		dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		t.base.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			raw, err := arrival.Dial(dialer.DialContext)(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			t.dials.Add(1)
			cfg := e.TLS.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName, _, _ = net.SplitHostPort(addr)
			}
			conn := tls.Client(raw, cfg)
			if err := handshake(ctx, conn); err != nil {
				raw.Close()
				return nil, err
			}
			return conn, nil
		}
	}
	return c
}

// Poster is a Poster to path (with its query) on the endpoint, with its
// Authorization header and the extra header names and values given.
func (e Endpoint) Poster(path string, header ...string) (*Poster, error) {
	if e.Authorization != "" {
		header = append(header[:len(header):len(header)], "Authorization", e.Authorization)
	}
	return newPoster(e.Base+path, e.TLS, header...)
}

// tlsError says what a failed TLS handshake means to the user. A server
// that answers the handshake in plaintext (an HTTP server without TLS) is
// targets.ErrNoTLS: tsbench stops, exit 2, and never retries in plaintext.
// A certificate tsbench could not verify names the keys that decide it.
func tlsError(err error) error {
	var rec tls.RecordHeaderError
	var verify *tls.CertificateVerificationError
	var host x509.HostnameError
	switch {
	case errors.As(err, &rec), errors.Is(err, http.ErrSchemeMismatch):
		return fmt.Errorf("%w (it answered the TLS handshake in plaintext)", targets.ErrNoTLS)
	case errors.As(err, &host):
		return fmt.Errorf("%w (set TLS_SERVER_NAME to the name the certificate carries, or TLS=insecure not to verify)", err)
	case errors.As(err, &verify):
		return fmt.Errorf("%w (set TLS_CA_FILE to the authority that signed the server's certificate, or TLS=insecure not to verify)", err)
	}
	return err
}

// handshakeTimeout bounds a TLS handshake: a TLS server answers a
// ClientHello at once, where an HTTP server without TLS may wait silently
// for the end of a request line that the ClientHello's random bytes did
// not happen to hold (ClickHouse's does, now and then).
var handshakeTimeout = 10 * time.Second

// handshake runs conn's TLS handshake under ctx and handshakeTimeout; a
// failure is handshakeError's, and no answer within the timeout (ctx
// still live) is ErrNoTLS.
func handshake(ctx context.Context, conn *tls.Conn) error {
	hctx, cancel := context.WithTimeout(ctx, handshakeTimeout)
	defer cancel()
	err := conn.HandshakeContext(hctx)
	if err != nil && ctx.Err() == nil && hctx.Err() != nil {
		return fmt.Errorf("%w (no TLS answer to the handshake within %s)", targets.ErrNoTLS, handshakeTimeout)
	}
	if err != nil {
		return handshakeError(err)
	}
	return nil
}

// handshakeError is tlsError for a failed handshake, where a server that
// closes the connection without any TLS answer (QuestDB's HTTP port does,
// some of the time, where it otherwise answers in plaintext) offers no TLS
// either: a TLS server answers a ClientHello, if only with an alert.
func handshakeError(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) {
		return fmt.Errorf("%w (it closed the connection on the TLS handshake without a TLS answer)", targets.ErrNoTLS)
	}
	return tlsError(err)
}

// UserAuth is the Basic value of o's USERNAME and PASSWORD, or "" when no
// user is set or the user is IoT-benchmark's default "root", which the
// HTTP targets take as "the server's default: no authentication" (a
// configuration made for IoT-benchmark names root whatever the server).
func UserAuth(o targets.Options) string {
	if o.User == "" || o.User == "root" {
		return ""
	}
	return Basic(o.User, o.Password)
}

// TokenAuth is the Authorization value of o for a server that takes a
// TOKEN under scheme ("Token" for InfluxDB 2.x, "Bearer" for a gateway in
// front of the server): the token when one is set, else UserAuth.
func TokenAuth(o targets.Options, scheme string) string {
	if o.Token != "" {
		return scheme + " " + o.Token
	}
	return UserAuth(o)
}
