package hbase

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
)

// client is a minimal native HBase client: it finds hbase:meta and the
// master through ZooKeeper, locates regions by scanning hbase:meta, and
// sends Mutate, Scan and master procedure calls over pipelined connections.
type client struct {
	zkAddr string
	user   string

	mu         sync.Mutex
	masterAddr string              // host:port, empty until looked up
	conns      map[string]*rpcConn // by service + "@" + host:port
	regions    map[string][]region // by table, sorted by start key
}

// region is one region of a table and the server that hosts it.
type region struct {
	name, start, end []byte
	addr             string
}

func (r *region) contains(key []byte) bool {
	return bytes.Compare(key, r.start) >= 0 && (len(r.end) == 0 || bytes.Compare(key, r.end) < 0)
}

const (
	clientService = "ClientService"
	masterService = "MasterService"
	retries       = 10
)

func newClient(zkAddr, user string) *client {
	return &client{zkAddr: zkAddr, user: user, conns: map[string]*rpcConn{}, regions: map[string][]region{}}
}

// conn returns a live connection to addr for service, dialling if needed.
func (c *client) conn(ctx context.Context, addr, service string) (*rpcConn, error) {
	key := service + "@" + addr
	c.mu.Lock()
	defer c.mu.Unlock()
	if rc := c.conns[key]; rc != nil && !rc.broken() {
		return rc, nil
	}
	rc, err := dialRPC(ctx, addr, service, c.user)
	if err != nil {
		return nil, fmt.Errorf("hbase: connect to %s: %w", addr, err)
	}
	c.conns[key] = rc
	return rc, nil
}

func (c *client) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, rc := range c.conns {
		rc.close()
		delete(c.conns, k)
	}
}

// znode reads the server address HBase published in a znode
// (/hbase/master or /hbase/meta-region-server): a 0xFF marker, metadata,
// "PBUF", then a message whose field 1 is a ServerName.
func (c *client) znode(ctx context.Context, path string) (string, error) {
	var data []byte
	err := c.zookeeper(ctx, func(conn *zk.Conn) (err error) {
		data, _, err = conn.Get(path)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("hbase: zookeeper %s: read %s: %w", c.zkAddr, path, err)
	}
	addr, err := parseZnode(data)
	if err != nil {
		return "", fmt.Errorf("hbase: zookeeper %s: %s: %w", c.zkAddr, path, err)
	}
	return addr, nil
}

// zookeeper runs fn on a fresh ZooKeeper session, bounded by ctx's deadline
// (go-zookeeper's calls take no context).
func (c *client) zookeeper(ctx context.Context, fn func(conn *zk.Conn) error) error {
	ctx, cancel := withDeadline(ctx)
	defer cancel()
	conn, _, err := zk.Connect([]string{c.zkAddr}, 10*time.Second, zk.WithLogInfo(false))
	if err != nil {
		return err
	}
	defer conn.Close()
	done := make(chan error, 1)
	go func() { done <- fn(conn) }()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case err := <-done:
		return err
	}
}

// version reads the HBase version a region server published in its znode
// /hbase/rs/NAME: metadata, "PBUF", then a RegionServerInfo whose field 2
// is a VersionInfo with the version string in field 1.
func (c *client) version(ctx context.Context) (string, error) {
	var data []byte
	err := c.zookeeper(ctx, func(conn *zk.Conn) error {
		servers, _, err := conn.Children("/hbase/rs")
		if err != nil {
			return err
		}
		if len(servers) == 0 {
			return errors.New("no region server registered")
		}
		data, _, err = conn.Get("/hbase/rs/" + servers[0])
		return err
	})
	if err != nil {
		return "", fmt.Errorf("hbase: zookeeper %s: region servers: %w", c.zkAddr, err)
	}
	return parseVersion(data)
}

func parseVersion(data []byte) (string, error) {
	msg, err := znodeMessage(data)
	if err != nil {
		return "", fmt.Errorf("hbase: region server entry: %w", err)
	}
	var version string
	err = eachField(msg, func(f pbField) error {
		if f.num != 2 {
			return nil
		}
		return eachField(f.data, func(v pbField) error {
			if v.num == 1 {
				version = string(v.data)
			}
			return nil
		})
	})
	if err == nil && version == "" {
		err = errors.New("no version in the region server entry")
	}
	return version, err
}

// znodeMessage strips the metadata (0xFF, a length and an id) and the
// "PBUF" magic HBase puts before the message of its znodes.
func znodeMessage(data []byte) ([]byte, error) {
	if len(data) < 5 || data[0] != 0xFF {
		return nil, errors.New("not an HBase server entry")
	}
	skip := 5 + int(binary.BigEndian.Uint32(data[1:]))
	if skip < 5 || len(data) < skip+4 || string(data[skip:skip+4]) != "PBUF" {
		return nil, errors.New("no PBUF magic")
	}
	return data[skip+4:], nil
}

func parseZnode(data []byte) (string, error) {
	msg, err := znodeMessage(data)
	if err != nil {
		return "", err
	}
	var server []byte
	if err := eachField(msg, func(f pbField) error {
		if f.num == 1 {
			server = f.data
		}
		return nil
	}); err != nil {
		return "", err
	}
	return parseServerName(server)
}

// parseServerName turns a ServerName message into host:port.
func parseServerName(msg []byte) (string, error) {
	var host string
	var port uint64
	err := eachField(msg, func(f pbField) error {
		switch f.num {
		case 1:
			host = string(f.data)
		case 2:
			port = f.u
		}
		return nil
	})
	if host == "" || port == 0 {
		if err != nil {
			return "", fmt.Errorf("no server name: %w", err)
		}
		return "", errors.New("no server name")
	}
	return net.JoinHostPort(host, strconv.FormatUint(port, 10)), err
}

// callRegion runs a call against the region of table holding key, looking
// regions up again and retrying while the region is moving or busy.
func (c *client) callRegion(ctx context.Context, table string, key []byte, reversed bool, method string,
	req func(r *region) pb) ([]byte, *region, error) {
	var last error
	for attempt := 0; attempt < retries; attempt++ {
		if attempt > 0 {
			c.forgetRegions(table)
			if err := sleep(ctx, attempt); err != nil {
				return nil, nil, fmt.Errorf("%w (last error: %v)", err, last)
			}
		}
		r, err := c.locate(ctx, table, key, reversed)
		if err != nil {
			last = err
			continue
		}
		rc, err := c.conn(ctx, r.addr, clientService)
		if err != nil {
			last = err
			continue
		}
		msg, err := rc.call(ctx, method, req(r))
		if err == nil || !(retriable(err) || rc.broken()) {
			return msg, r, err
		}
		last = err
	}
	return nil, nil, last
}

func sleep(ctx context.Context, attempt int) error {
	t := time.NewTimer(time.Duration(attempt) * 100 * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func regionSpec(name []byte) pb { return pb{}.uint(1, 1).bytes(2, name) } // REGION_NAME

// locate finds the region of table holding key; with before, the region
// holding the keys just below key (for reversed scans from a region's
// start). It reads hbase:meta when the table's regions are not cached.
func (c *client) locate(ctx context.Context, table string, key []byte, before bool) (*region, error) {
	c.mu.Lock()
	regs := c.regions[table]
	c.mu.Unlock()
	if regs == nil {
		var err error
		if regs, err = c.readMeta(ctx, table); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.regions[table] = regs
		c.mu.Unlock()
	}
	for i := range regs {
		r := &regs[i]
		switch {
		case !before && r.contains(key),
			before && len(key) == 0 && len(r.end) == 0,
			before && len(key) > 0 && bytes.Equal(r.end, key):
			return r, nil
		}
	}
	return nil, fmt.Errorf("hbase: table %s: no region holds row %q", table, key)
}

func (c *client) forgetRegions(table string) {
	c.mu.Lock()
	delete(c.regions, table)
	c.mu.Unlock()
}

// readMeta scans hbase:meta for the open, assigned regions of table.
func (c *client) readMeta(ctx context.Context, table string) ([]region, error) {
	addr, err := c.znode(ctx, "/hbase/meta-region-server")
	if err != nil {
		return nil, err
	}
	meta := &region{name: []byte("hbase:meta,,1"), addr: addr}
	var regs []region
	// hbase:meta compares rows as "table,startkey,regionid": start at the
	// table's first possible row and stop at the first row of another table.
	prefix := []byte(table + ",")
	sc := scanSpec{start: []byte(table + ",,"), family: "info"}
	err = c.scanRegion(ctx, meta, sc, func(row []byte, cells []cell) bool {
		if !bytes.HasPrefix(row, prefix) {
			return false
		}
		if r, ok := metaRegion(row, cells); ok {
			regs = append(regs, r)
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("hbase: read hbase:meta for %s: %w", table, err)
	}
	if len(regs) == 0 {
		return nil, &RemoteError{Class: "NotServingRegionException", Stack: "no assigned region of " + table + " in hbase:meta"}
	}
	sort.Slice(regs, func(i, j int) bool { return bytes.Compare(regs[i].start, regs[j].start) < 0 })
	return regs, nil
}

// metaRegion reads one hbase:meta row: info:regioninfo ("PBUF" + RegionInfo)
// and info:server (host:port). Offline and split parents are skipped.
func metaRegion(row []byte, cells []cell) (region, bool) {
	r := region{name: append([]byte(nil), row...)}
	ok := true
	for _, c := range cells {
		switch string(c.qualifier) {
		case "server":
			r.addr = string(c.value)
		case "regioninfo":
			if !bytes.HasPrefix(c.value, []byte("PBUF")) {
				return r, false
			}
			eachField(c.value[4:], func(f pbField) error {
				switch f.num {
				case 3:
					r.start = append([]byte{}, f.data...)
				case 4:
					r.end = append([]byte{}, f.data...)
				case 5, 6:
					ok = ok && f.u == 0
				}
				return nil
			})
		}
	}
	return r, ok && r.addr != ""
}

// master returns a connection to the active master, whose address is read
// from ZooKeeper the first time and after a failed master call.
func (c *client) master(ctx context.Context) (*rpcConn, error) {
	c.mu.Lock()
	addr := c.masterAddr
	c.mu.Unlock()
	if addr == "" {
		var err error
		if addr, err = c.znode(ctx, "/hbase/master"); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.masterAddr = addr
		c.mu.Unlock()
	}
	return c.conn(ctx, addr, masterService)
}

// forgetMaster makes the next master call look the master up again.
func (c *client) forgetMaster() {
	c.mu.Lock()
	c.masterAddr = ""
	c.mu.Unlock()
}
