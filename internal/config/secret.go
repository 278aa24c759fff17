package config

import (
	"strings"

	redactpkg "github.com/tsbench/tsbench/internal/redact"
)

// Redacted replaces the value of a secret key wherever a configuration is
// shown: Print, Map, error messages.
const Redacted = "***"

// isSecretName reports whether a key holds a credential. It goes by name
// rather than by a list so that keys tsbench only passes through
// (TEST_DATA_STORE_PW, ANOTHER_PASSWORD, KEY_STORE_PWD, target.password)
// are covered as well.
func isSecretName(name string) bool {
	n := strings.ToUpper(name)
	return strings.Contains(n, "PASSWORD") || strings.Contains(n, "TOKEN") ||
		strings.Contains(n, "SECRET") || strings.Contains(n, "AUTHORIZATION") ||
		strings.HasSuffix(n, "_PW") || strings.HasSuffix(n, "_PWD") ||
		n == "PW" || n == "PWD"
}

// redactPairs hides the secret values in "k=v,k2=v2" text.
func redactPairs(s string) string {
	pairs := strings.Split(s, ",")
	for i, p := range pairs {
		if k, v, ok := strings.Cut(p, "="); ok {
			pairs[i] = k + "=" + redact(strings.TrimSpace(k), v)
		}
	}
	return strings.Join(pairs, ",")
}

// redact hides v when name is secret. An empty secret stays empty: showing
// that no password is set reveals nothing and helps debugging.
func redact(name, v string) string {
	if v != "" && isSecretName(name) {
		return Redacted
	}
	if isURLName(name) {
		return redactpkg.URL(v)
	}
	return v
}

// isURLName reports whether a key holds a connection URL, whose password
// part is a secret (TARGET_URL, WRITE_URL, QUERY_URL, and URL, the alias).
func isURLName(name string) bool {
	n := normalize(name)
	return n == "URL" || strings.HasSuffix(n, "_URL")
}

// ShowValue is v as a message may show the value of a setting or flag
// called name: a credential hidden, a URL's password too.
func ShowValue(name, v string) string { return redact(name, v) }
