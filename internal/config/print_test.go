package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// secretConfig sets every kind of secret: the built-in keys, pass-through
// IoT-benchmark keys, and a target option.
func secretConfig(t *testing.T) (*Config, []string) {
	t.Helper()
	c := Default()
	secrets := []string{"pw-0xDEADBEEF", "tok-0xCAFE", "store-0xF00D", "another-0xBEEF", "opt-0xABBA", "tls-0xD00D"}
	_, err := loadProps(c, strings.Join([]string{
		"PASSWORD=" + secrets[0],
		"TOKEN=" + secrets[1],
		"TEST_DATA_STORE_PW=" + secrets[2],
		"ANOTHER_PASSWORD=" + secrets[3],
		"target.password=" + secrets[4],
		"TRUST_STORE_PWD=" + secrets[5],
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c, secrets
}

func TestSecretsNeverShown(t *testing.T) {
	c, secrets := secretConfig(t)
	var b strings.Builder
	if err := Print(c, &b); err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(Map(c))
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{b.String(), string(js)} {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("secret %q shown in\n%s", s, out)
			}
		}
	}
	m := Map(c)
	for _, k := range []string{"password", "token", "test_data_store_pw", "another_password", "trust_store_pwd"} {
		if m[k] != Redacted {
			t.Errorf("Map[%s] = %#v, want %q", k, m[k], Redacted)
		}
	}
	if opts := m["target_options"].(map[string]string); opts["password"] != Redacted {
		t.Errorf("target option password shown as %q", opts["password"])
	}
	if c.Password != secrets[0] {
		t.Error("Map or Print changed the config")
	}
}

func TestSecretsNotInErrors(t *testing.T) {
	c := Default()
	// Warnings about ignored keys and errors about target options redact
	// secrets.
	warnings, _ := loadProps(c, "IS_CLIENT_BIND=false\nTEST_DATA_STORE_PW=hunter2\nTEST_DATA_STORE_PW=hunter2\n")
	for _, w := range warnings {
		if strings.Contains(w, "hunter2") {
			t.Errorf("secret in warning %q", w)
		}
	}
	_, err := loadProps(c, "TARGET_OPTIONS=password=hunter2,bad\n")
	if e := asError(t, err); strings.Contains(e.Error(), "hunter2") || !strings.Contains(e.Error(), "password=***,bad") {
		t.Errorf("target option secret in error %q", e.Error())
	}
}

// TestPrintRoundTrip: Print's output is a tsbench YAML configuration that
// reads back to the same Config (secrets aside).
func TestPrintRoundTrip(t *testing.T) {
	for _, file := range []string{"crrc-write.properties", "crrc-query.properties", "syntax.properties"} {
		orig, _ := loadFile(t, file)
		orig.Password, orig.Token = "", ""
		orig.OpMinIntervalStep = true
		orig.TargetOptions["mode"] = "wal"
		delete(orig.Extra, "TEST_DATA_STORE_PW")
		var b strings.Builder
		if err := Print(orig, &b); err != nil {
			t.Fatal(err)
		}
		back := Default()
		warnings, err := LoadYAML(back, strings.NewReader(b.String()), "printed.yaml")
		if err != nil {
			t.Fatalf("%s: reading Print output back: %v\n%s", file, err, b.String())
		}
		if containsLine(warnings, "unknown") {
			t.Errorf("%s: Print wrote keys LoadYAML does not know: %q", file, warnings)
		}
		assertSameConfig(t, back, orig)
	}
}

func TestPrintLayout(t *testing.T) {
	c := Default()
	c.Extra["IS_CLIENT_BIND"] = "true"
	var b strings.Builder
	if err := Print(c, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	order := []string{"# Target and connection\n", "target: sqlite\n", "\n# Run control\n",
		"write_operation_timeout_ms: 120000 # ms\n", "operations:\n  write: 10\n  Q1: 1\n", "Q10: 1\n",
		"clients: 4\n",
		"\n# Schema\n", "start_time: \"2022-01-01T00:00:00+08:00\"\n", "\n# Data generation\n", "\n# Queries\n",
		"\n# Output\n", "log_print_interval: 5 # s\n", "\n# Accepted for IoT-benchmark compatibility, not used\n",
		"is_client_bind: \"true\"\n"}
	pos := 0
	for _, s := range order {
		i := strings.Index(out[pos:], s)
		if i < 0 {
			t.Fatalf("%q missing or out of order in\n%s", s, out)
		}
		pos += i + len(s)
	}
	if strings.Contains(out, "duration:") || !strings.Contains(out, "test_max_time:") {
		t.Error("without --duration, Print shows the run's cap as test_max_time, not duration")
	}
}

func TestKeyTable(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range Keys() {
		if k.Name != strings.ToUpper(k.Name) || k.YAMLName() != strings.ToLower(k.Name) {
			t.Errorf("%s: names must be upper case, YAML names lower case", k.Name)
		}
		if k.Doc == "" || k.Allowed == "" || k.Group == "" {
			t.Errorf("%s: missing doc, allowed or group", k.Name)
		}
		if (k.Ignored == "") != (k.set != nil && k.get != nil) {
			t.Errorf("%s: a used key needs set and get, an ignored key neither", k.Name)
		}
		if seen[k.Name] {
			t.Errorf("%s declared twice", k.Name)
		}
		seen[k.Name] = true
	}
	for _, name := range []string{"PASSWORD", "TOKEN", "TEST_DATA_STORE_PW"} {
		if k, ok := Lookup(name); ok && !k.Secret {
			t.Errorf("%s is not secret", name)
		}
	}
	for name, want := range map[string]string{"data_client_number": "CLIENT_NUMBER", "OP_INTERVAL": "OP_MIN_INTERVAL",
		"target": "DB_SWITCH", "kafka_location": "KAFKA_*", "TEST_DATA_STORE_IP": "TEST_DATA_STORE_*"} {
		if k, ok := Lookup(name); !ok || k.Name != want {
			t.Errorf("Lookup(%s) = %s, %v; want %s", name, k.Name, ok, want)
		}
	}
}

// PASSWORD_FILE and TOKEN_FILE read their secret from a file (less a final
// line break); the secret is shown nowhere: not in Print, Map or the errors
// about such a file; a stored configuration read back (FromMap) reads no
// file and leaves the secrets empty.
func TestSecretFiles(t *testing.T) {
	dir := t.TempDir()
	pw, tok, empty := filepath.Join(dir, "pw"), filepath.Join(dir, "tok"), filepath.Join(dir, "empty")
	for path, text := range map[string]string{pw: "pw-file-0xFEED\n", tok: "tok-file-0xBEAD\r\n", empty: "\n"} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c := Default()
	if _, err := loadProps(c, "PASSWORD_FILE="+pw+"\nTOKEN_FILE="+tok+"\n"); err != nil {
		t.Fatal(err)
	}
	if c.Password != "pw-file-0xFEED" || c.Token != "tok-file-0xBEAD" {
		t.Fatalf("password %q, token %q: want the files' contents less the line break", c.Password, c.Token)
	}
	var b strings.Builder
	if err := Print(c, &b); err != nil {
		t.Fatal(err)
	}
	m := Map(c)
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{b.String(), string(js)} {
		for _, s := range []string{"pw-file-0xFEED", "tok-file-0xBEAD"} {
			if strings.Contains(out, s) {
				t.Errorf("secret %q shown in\n%s", s, out)
			}
		}
	}
	for _, k := range []string{"password", "token", "password_file", "token_file"} {
		if m[k] != Redacted {
			t.Errorf("Map[%s] = %#v, want %q", k, m[k], Redacted)
		}
	}
	back, err := FromMap(m, "stored run")
	if err != nil {
		t.Fatalf("a stored configuration with secret files does not read back: %v", err)
	}
	if back.Password != "" || back.Token != "" {
		t.Errorf("read back: password %q, token %q; want both empty", back.Password, back.Token)
	}
	for _, tc := range []struct{ line, want string }{
		{"PASSWORD_FILE=" + filepath.Join(dir, "absent"), "PASSWORD_FILE = \"***\": cannot read it"},
		{"TOKEN_FILE=" + empty, "TOKEN_FILE = \"***\": " + empty + " is empty"},
	} {
		_, err := loadProps(Default(), tc.line+"\n")
		if e := asError(t, err); !strings.Contains(e.Error(), tc.want) {
			t.Errorf("%s: error %q, want one saying %q", tc.line, e.Error(), tc.want)
		}
	}
}
