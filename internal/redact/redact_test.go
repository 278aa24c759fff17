package redact

import "testing"

func TestURL(t *testing.T) {
	for raw, want := range map[string]string{
		"postgres://user:s3cret@host:5432/db?sslmode=verify-full": "postgres://user:***@host:5432/db?sslmode=verify-full",
		"user:p@ss:w/rd@tcp(127.0.0.1:3307)/db":                   "user:***@tcp(127.0.0.1:3307)/db",
		"http://u:a@b@host/path":                                  "http://u:***@host/path",
		"http://host:8428/api":                                    "http://host:8428/api",
		"postgres://user@host/db":                                 "postgres://user@host/db",
		"postgres://user:@host/db":                                "postgres://user:@host/db",
		"":                                                        "",
	} {
		if got := URL(raw); got != want {
			t.Errorf("URL(%q) = %q, want %q", raw, got, want)
		}
	}
}
