package httpclient

import (
	"testing"

	"github.com/tsbench/tsbench/internal/targets"
)

// A TOKEN wins over USERNAME and PASSWORD, under the scheme asked; without
// one the user's basic authentication is sent, and no header at all for
// no user or IoT-benchmark's default root.
func TestTokenAuth(t *testing.T) {
	cases := []struct {
		name string
		o    targets.Options
		want string
	}{
		{"no credentials", targets.Options{}, ""},
		{"default root", targets.Options{User: "root", Password: "root"}, ""},
		{"user", targets.Options{User: "bench", Password: "pw"}, "Basic YmVuY2g6cHc="},
		{"token", targets.Options{Token: "t0k"}, "Bearer t0k"},
		{"token over user", targets.Options{User: "bench", Password: "pw", Token: "t0k"}, "Bearer t0k"},
	}
	for _, c := range cases {
		if got := TokenAuth(c.o, "Bearer"); got != c.want {
			t.Errorf("%s: TokenAuth = %q, want %q", c.name, got, c.want)
		}
	}
}
