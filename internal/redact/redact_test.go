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
		"https://u:p@ss/w:rd@h:1/x?y=1":                           "https://u:***@h:1/x?y=1",
		"root:pw@tcp(db:3306)/bench?tls=true":                     "root:***@tcp(db:3306)/bench?tls=true",
		"postgres://u:pw@h1:5432,h2:5433/db":                      "postgres://u:***@h1:5432,h2:5433/db",
		"":                                                        "",
	} {
		if got := URL(raw); got != want {
			t.Errorf("URL(%q) = %q, want %q", raw, got, want)
		}
	}
}
