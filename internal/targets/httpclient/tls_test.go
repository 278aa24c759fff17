package httpclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

// tlsEndpoint is a loopback HTTPS endpoint (the client's mechanics, not a
// database) with a certificate for 127.0.0.1 signed by a CA the test makes:
// it answers 204 to a request whose body is what the test sent, 400
// otherwise, and records the Authorization headers it saw. It returns its
// address, the CA file and the headers seen.
func tlsEndpoint(t *testing.T, tlsOn bool) (addr, ca string, seen func() []string) {
	t.Helper()
	dir := t.TempDir()
	ca = testenv.WriteCerts(t, dir)
	var mu sync.Mutex
	var auths []string
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.TLS == nil && tlsOn || !bytes.Equal(body, tlsBody(len(body))) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}), ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if tlsOn {
		pair, err := tls.LoadX509KeyPair(filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key"))
		if err != nil {
			t.Fatal(err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{pair}})
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), ca, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), auths...)
	}
}

// tlsBody is n bytes of a known pattern.
func tlsBody(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

// Over TLS, the Poster and the Client reach a server whose certificate the
// CA file verifies, with the endpoint's Authorization on every request, and
// every body arrives whole (sizes across TLS records); another CA or host
// name is refused with the key to set; a server without TLS is
// targets.ErrNoTLS, never a plaintext request.
func TestTLS(t *testing.T) {
	addr, ca, seen := tlsEndpoint(t, true)
	_, port, _ := net.SplitHostPort(addr)
	otherCA := testenv.WriteCerts(t, t.TempDir())
	plainAddr, _, plainSeen := tlsEndpoint(t, false)
	_, plainPort, _ := net.SplitHostPort(plainAddr)

	cases := []struct {
		name string
		tls  targets.TLS
		port string
		want string // "" for success
	}{
		{"verified", targets.TLS{Mode: "on", CAFile: ca}, port, ""},
		{"insecure", targets.TLS{Mode: "insecure"}, port, ""},
		{"another CA", targets.TLS{Mode: "on", CAFile: otherCA}, port, "certificate signed by unknown authority"}, {"another CA, the key to set", targets.TLS{Mode: "on", CAFile: otherCA}, port, "set TLS_CA_FILE"},
		{"another host name", targets.TLS{Mode: "on", CAFile: ca, ServerName: "db.example"}, port, "not db.example (set TLS_SERVER_NAME"},
		{"server without TLS", targets.TLS{Mode: "on", CAFile: ca}, plainPort, targets.ErrNoTLS.Error()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var p int
			fmt.Sscan(c.port, &p)
			e, err := endpointFor(c.tls, "127.0.0.1", p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(e.Base, "https://") {
				t.Fatalf("base %s, want https", e.Base)
			}
			e.Authorization = Basic("u", "p")
			poster, err := e.Poster("/write?db=x")
			if err != nil {
				t.Fatal(err)
			}
			defer poster.Close()
			client := e.Client()
			for i, n := range []int{0, 10, 16 << 10, 16<<10 + 1, 100 << 10, 7} {
				perr := poster.Post(ctx, tlsBody(n))
				_, cerr := Do(ctx, client, http.MethodPost, e.Base+"/q", tlsBody(n), nil)
				for _, err := range []error{perr, cerr} {
					switch {
					case c.want == "" && err != nil:
						t.Fatalf("body %d (%d bytes): %v", i, n, err)
					case c.want != "" && err == nil:
						t.Fatalf("body %d: sent; want an error saying %q", i, c.want)
					case c.want != "" && !strings.Contains(err.Error(), c.want):
						t.Fatalf("error %v, want one saying %q", err, c.want)
					case c.want == targets.ErrNoTLS.Error() && !errors.Is(err, targets.ErrNoTLS):
						t.Fatalf("error %v is not targets.ErrNoTLS", err)
					}
				}
				if c.want != "" {
					break
				}
			}
			if c.want == "" && poster.Reconnects() != 0 {
				t.Fatalf("%d reconnections over one kept-alive TLS connection", poster.Reconnects())
			}
		})
	}
	for _, a := range seen() {
		if a != Basic("u", "p") {
			t.Fatalf("a request carried Authorization %q, want the endpoint's", a)
		}
	}
	if len(seen()) != 2*2*6 {
		t.Fatalf("the TLS server saw %d requests, want %d", len(seen()), 2*2*6)
	}
	if n := len(plainSeen()); n != 0 {
		t.Fatalf("the server without TLS got %d requests: TLS asked for fell back to plaintext", n)
	}
}

// Without TLS the endpoint is plain http, and a Basic value is RFC 7617's.
func TestEndpointPlain(t *testing.T) {
	e, err := NewEndpoint(targets.Options{Port: 8428}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if e.Base != "http://127.0.0.1:8428" || e.TLS != nil {
		t.Fatalf("endpoint %+v", e)
	}
	if got := e.Port(9000).Base; got != "http://127.0.0.1:9000" {
		t.Fatalf("Port(9000): %s", got)
	}
	if got := Basic("Aladdin", "open sesame"); got != "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==" {
		t.Fatalf("Basic: %s", got)
	}
	e, err = NewEndpoint(targets.Options{Host: "db.example", TLS: targets.TLS{Mode: "on"}}, 8086)
	if err != nil {
		t.Fatal(err)
	}
	if e.Port(9000).Base != "https://db.example:9000" || e.TLS.ServerName != "db.example" {
		t.Fatalf("endpoint %+v", e.Port(9000))
	}
}

// Over TLS as in plaintext, a cancelled context ends a request the server
// never answers at once, by closing the connection under the TLS layer.
func TestTLSCancelAborts(t *testing.T) {
	dir := t.TempDir()
	ca := testenv.WriteCerts(t, dir)
	pair, err := tls.LoadX509KeyPair(filepath.Join(dir, "server.crt"), filepath.Join(dir, "server.key"))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{pair}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go readNeverAnswer(ln)
	port := ln.Addr().(*net.TCPAddr).Port
	e, err := endpointFor(targets.TLS{Mode: "on", CAFile: ca}, "127.0.0.1", port)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.Poster("/write")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	err = p.Post(ctx, tlsBody(100))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("the cancelled request returned after %v", d)
	}
}

// A server that reads the ClientHello and never answers (an HTTP server
// without TLS waiting for the end of a request line) is targets.ErrNoTLS
// once the handshake timeout passes, for the Poster and the Client alike,
// not a wait as long as the request's deadline.
func TestSilentServerIsNoTLS(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go readNeverAnswer(ln)
	defer func(d time.Duration) { handshakeTimeout = d }(handshakeTimeout)
	handshakeTimeout = 200 * time.Millisecond
	e := Endpoint{Base: "https://" + ln.Addr().String(), TLS: &tls.Config{InsecureSkipVerify: true}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := e.Poster("/write")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	perr := p.Post(ctx, []byte("x"))
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.Base+"/ping", nil)
	_, cerr := e.Client().Do(req)
	for name, err := range map[string]error{"poster": perr, "client": cerr} {
		if !errors.Is(err, targets.ErrNoTLS) || !strings.Contains(err.Error(), "no TLS answer") {
			t.Errorf("%s: %v, want ErrNoTLS (no TLS answer)", name, err)
		}
	}
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("took %s: the handshake timeout did not bound it", d)
	}
}

// readNeverAnswer accepts ln's connections and reads them, never
// answering, until ln closes.
func readNeverAnswer(ln net.Listener) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() { defer c.Close(); io.Copy(io.Discard, c) }()
	}
}
