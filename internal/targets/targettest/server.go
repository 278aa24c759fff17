package targettest

import (
	"net"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/testenv"
)

// RequireServer checks that the server of a target answers at addr
// (host:port). When it does not, the test fails in CI (CI=true: a missing
// server there is a broken pipeline, never a skip) and is skipped elsewhere,
// naming the script that starts it (see testenv).
func RequireServer(t testing.TB, name, addr string) {
	t.Helper()
	testenv.AwaitService(t, name)
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err == nil {
		conn.Close()
		return
	}
	testenv.Require(t, name+" server not reachable at "+addr+" ("+err.Error()+"); start it with: scripts/services/"+name+".sh install && scripts/services/"+name+".sh start")
}

// Server is a target's test server: its name in scripts/services and its
// address (host:port). Each of its methods requires it first
// (RequireServer: skipped without it, failed in CI).
//
// Port, when set, is the port the target opens (targets.Options.Port): a
// second release of a server (postgres-18.sh beside postgres.sh) listens
// off the target's default port. Unset, the target opens its default,
// which for some targets is not Addr's port (QuestDB writes on 9000, and
// Addr is its SQL port).
type Server struct {
	Name, Addr string
	Port       int
}

// Options is o with the server's Port where o names none.
func (s Server) Options(o targets.Options) targets.Options {
	if o.Port == 0 {
		o.Port = s.Port
	}
	return o
}

// EachServer runs f on each of servers, as a subtest named by the
// server's script (postgres, postgres-18): the releases of one target
// that scripts/services starts side by side. Each subtest requires its
// server first.
func EachServer(t *testing.T, servers []Server, f func(t *testing.T, s Server)) {
	t.Helper()
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			s.Require(t)
			f(t, s)
		})
	}
}

// Require skips the test without the server (fails it in CI).
func (s Server) Require(t testing.TB) {
	t.Helper()
	RequireServer(t, s.Name, s.Addr)
}

// Variants is every combination of the values of each target option, in
// key order: Variants(map[string][]string{"layout": {"narrow", "wide"},
// "write_path": {"copy"}}) is layout=narrow,write_path=copy then
// layout=wide,write_path=copy.
func Variants(opts map[string][]string) []map[string]string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []map[string]string{{}}
	for _, k := range keys {
		var next []map[string]string
		for _, base := range out {
			for _, v := range opts[k] {
				m := map[string]string{k: v}
				for bk, bv := range base {
					m[bk] = bv
				}
				next = append(next, m)
			}
		}
		out = next
	}
	return out
}

// variantName is a variant's values in key order, joined by "/".
func variantName(extra map[string]string) string {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	vals := make([]string, len(keys))
	for i, k := range keys {
		vals[i] = extra[k]
	}
	return strings.Join(vals, "/")
}

// eachVariant calls f with o for each variant of the target options opts
// (Variants), as a subtest named by its values; with no opts, once with o
// as it is, in t itself.
func eachVariant[T interface{ Run(string, func(T)) bool }](t T, o targets.Options, opts map[string][]string, f func(T, targets.Options)) {
	if len(opts) == 0 {
		f(t, o)
		return
	}
	for _, extra := range Variants(opts) {
		v := o
		v.Extra = extra
		t.Run(variantName(extra), func(t T) { f(t, v) })
	}
}

// Conformance runs the conformance suite against the server: suite as it
// is, or with each variant of the target options opts (Variants), a
// subtest each.
func (s Server) Conformance(t *testing.T, suite Suite, opts map[string][]string) {
	t.Helper()
	s.Require(t)
	eachVariant(t, s.Options(suite.Options), opts, func(t *testing.T, o targets.Options) {
		v := suite
		v.Options = o
		Run(t, v)
	})
}

// NoTLS checks that TLS asked of the server, which takes plaintext only, is
// targets.ErrNoTLS and never a plaintext connection (CheckNoTLS with opts
// and caFile).
func (s Server) NoTLS(t *testing.T, d *targets.Driver, opts targets.Options, caFile string) {
	t.Helper()
	s.Require(t)
	CheckNoTLS(t, d, s.Options(opts), caFile)
}

// Conforms runs the conformance suite against the server with d in
// database (Conformance), with each variant of the target options opts.
func (s Server) Conforms(t *testing.T, d *targets.Driver, database string, opts map[string][]string) {
	t.Helper()
	s.Conformance(t, Suite{Driver: d, Options: targets.Options{Database: database}}, opts)
}

// PlaintextOnly checks that TLS asked of the server, which takes plaintext
// only, is targets.ErrNoTLS, with the system's authorities as with a CA
// file: tsbench does not fall back to plaintext.
func (s Server) PlaintextOnly(t *testing.T, d *targets.Driver) {
	t.Helper()
	s.NoTLS(t, d, targets.Options{}, "")
	CheckNoTLS(t, d, s.Options(targets.Options{}), testenv.WriteCerts(t, t.TempDir()))
}

// BenchmarkWrite is the lean-client comparison's write (BenchmarkWrite)
// against the server with o, or compares the variants of the target
// options opts (Variants) on the same data in one run.
func (s Server) BenchmarkWrite(b *testing.B, d *targets.Driver, o targets.Options, opts map[string][]string) {
	s.Require(b)
	eachVariant(b, s.Options(o), opts, func(b *testing.B, o targets.Options) { BenchmarkWrite(b, d, o) })
}
