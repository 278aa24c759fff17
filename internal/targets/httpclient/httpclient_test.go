package httpclient

import (
	"bytes"
	"io"
	"net"
	"testing"
	"time"
)

// A request body copied into the connection arrives whole, through the
// pooled buffer: no 32 KB buffer is allocated per body.
func TestPooledConnCopiesBodies(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	const bodies = 50
	body := bytes.Repeat([]byte("s_0=1.25,s_1=-3 1640966400000\n"), 600) // 18 KB
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		all, _ := io.ReadAll(io.LimitReader(c, int64(len(body)*(bodies+1))))
		got <- all
	}()
	raw, err := net.DialTimeout("tcp", ln.Addr().String(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	c := pooledConn{raw}
	br := bytes.NewReader(body)
	lr := &io.LimitedReader{}
	send := func() {
		br.Reset(body)
		*lr = io.LimitedReader{R: br, N: int64(len(body))} // as net/http passes it
		if n, err := c.ReadFrom(lr); err != nil || n != int64(len(body)) {
			t.Fatalf("copied %d bytes of %d: %v", n, len(body), err)
		}
	}
	send()
	if allocs := testing.AllocsPerRun(bodies, send); allocs > 1 {
		t.Errorf("%.1f allocations per body copied", allocs)
	}
	select {
	case all := <-got:
		if !bytes.Equal(all, bytes.Repeat(body, bodies+1)) {
			t.Fatalf("the server got %d bytes, not the %d sent", len(all), len(body)*(bodies+1))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not get the bodies")
	}
}
