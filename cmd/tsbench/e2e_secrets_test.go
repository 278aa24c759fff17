package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/tsbench/tsbench/internal/target/targettest"
)

// A database password, given in a configuration file, on the command line
// (--set PASSWORD=…) and in the environment (TSBENCH_PASSWORD), reaches a
// MariaDB server that checks it — the runs write and verify — and appears
// in nothing tsbench writes: the console, the JSON summary, the run
// directory's CSVs, the HDR log, the results store (SQLite file and
// PostgreSQL rows), the HTML report, exports, and the error of a refused
// login. The results store's own password, inside --results, is held to
// the same rule.
func TestSecretsNeverWritten(t *testing.T) {
	targettest.RequireServer(t, "mariadb", "127.0.0.1:3307")
	targettest.RequireServer(t, "postgres", "127.0.0.1:5433")
	password, wrong, storePassword := secret(t), secret(t), secret(t)
	user := createMariaDBUser(t, password)
	storeURL := createResultsDatabase(t, storePassword)
	secrets := []string{password, wrong, storePassword}

	shape := []string{"--target", "mysql", "--set", "USERNAME=" + user, "--devices", "4", "--clients", "2",
		"--loop", "20", "--quiet"}
	ways := []struct {
		name    string
		args    func(dir string) []string
		env     []string
		results string // "" = SQLite in the data directory
	}{
		{name: "config file", args: func(dir string) []string {
			props := filepath.Join(t.TempDir(), "config.properties") // input, not output: outside dir
			if err := os.WriteFile(props, []byte("PASSWORD="+password+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return []string{"--properties", props}
		}},
		{name: "flag", args: func(string) []string { return []string{"--set", "PASSWORD=" + password} }, results: storeURL},
		{name: "environment", args: func(string) []string { return nil }, env: []string{"TSBENCH_PASSWORD=" + password}},
	}
	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			store := []string{}
			if w.results != "" {
				store = []string{"--results", w.results}
			}
			args := append([]string{"run", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"),
				"--hdr-log", dir}, shape...)
			args = append(append(args, w.args(dir)...), store...)
			r := tsbench(t, w.env, args...)
			if r.code != 0 || !strings.Contains(r.stdout, "Verify: stored") || !strings.Contains(r.stdout, ": OK") {
				t.Fatalf("exit %d: the run did not write and verify with the password\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			id, _ := storedRun(t, r)
			outputs := []result{r}
			for _, more := range [][]string{
				{"report", id, "-o", filepath.Join(dir, "report.html")},
				{"runs", "show", id},
				{"runs", "export", id, "--format", "json", "-o", filepath.Join(dir, "export.json")},
				{"runs", "export", id, "--format", "hdr", "-o", filepath.Join(dir, "export.hlog")},
				{"runs", "export", id, "--format", "csv", "-o", filepath.Join(dir, "csv")},
				{"run", "--print-config", "--target", "mysql"},
			} {
				o := tsbench(t, w.env, append(append(more, "--data-dir", dir), store...)...)
				if o.code != 0 {
					t.Fatalf("%v: exit %d\n%s%s", more, o.code, o.stdout, o.stderr)
				}
				outputs = append(outputs, o)
			}
			for _, o := range outputs {
				noSecret(t, "output of tsbench", o.stdout+o.stderr, secrets)
			}
			written := 0
			filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				noSecret(t, path, string(b), secrets)
				written++
				return nil
			})
			if written < 8 { // s.json, the .hlog, results.db, the run directory, the report, the exports
				t.Fatalf("only %d files written: the check saw too little", written)
			}
			if w.results != "" {
				rows := storeRows(t, storeURL)
				if !strings.Contains(rows, id) {
					t.Fatalf("the PostgreSQL store does not hold run %s", id)
				}
				noSecret(t, "PostgreSQL results store", rows, secrets)
			}
		})
	}

	t.Run("refused login", func(t *testing.T) {
		r := tsbench(t, nil, append([]string{"run", "--data-dir", t.TempDir(), "--set", "PASSWORD=" + wrong}, shape...)...)
		if r.code != 1 || !strings.Contains(r.stderr, "Access denied") || !strings.Contains(r.stderr, user) {
			t.Fatalf("exit %d, want 1 with the server's refusal naming the user\n%s", r.code, r.stderr)
		}
		noSecret(t, "refused login", r.stdout+r.stderr, secrets)
	})
}

// secret is a password no output could hold by chance.
func secret(t *testing.T) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "S3cr3t-" + hex.EncodeToString(b)
}

func noSecret(t *testing.T, where, text string, secrets []string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Fatalf("%s contains a password", where)
		}
	}
}

// createMariaDBUser makes a user that logs in with password only, allowed
// the test database; it is dropped at the end.
func createMariaDBUser(t *testing.T, password string) string {
	const user = "tsbench_secrets"
	db, err := sql.Open("mysql", "root@tcp(127.0.0.1:3307)/test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		db.Exec("DROP USER IF EXISTS " + user)
		db.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{
		"DROP USER IF EXISTS " + user,
		fmt.Sprintf("CREATE USER %s IDENTIFIED BY '%s'", user, password),
		"GRANT ALL ON test.* TO " + user,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", strings.ReplaceAll(q, password, "…"), err)
		}
	}
	return user
}

// createResultsDatabase makes an empty PostgreSQL database for a results
// store and returns its URL with storePassword in it (the server trusts
// local logins, so any password is accepted and must still be hidden).
func createResultsDatabase(t *testing.T, storePassword string) string {
	const name = "tsbench_secrets"
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/test?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	for _, q := range []string{"DROP DATABASE IF EXISTS " + name, "CREATE DATABASE " + name} {
		if _, err := pg.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	return "postgres://postgres:" + storePassword + "@127.0.0.1:5433/" + name + "?sslmode=disable"
}

// storeRows is every row of every table of the store's database, as text.
func storeRows(t *testing.T, url string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pg, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	rows, err := pg.Query(ctx, `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name)
		FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, tbl := range tables {
		rows, err := pg.Query(ctx, "SELECT t::text FROM "+tbl+" t")
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join(texts, "\n"))
	}
	if len(tables) == 0 {
		t.Fatal("the PostgreSQL results store has no tables")
	}
	return b.String()
}
