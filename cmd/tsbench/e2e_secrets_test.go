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
	"github.com/tsbench/tsbench/internal/config"
)

// The MariaDB user of the secrets test, and the MariaDB database that holds
// its MySQL results store.
const (
	secretsUser    = "tsbench_secrets"
	secretsStoreDB = "tsbench_secrets_store"
)

// A database password, given in a .properties file, in a YAML file, on the
// command line (--set PASSWORD=…; there is no --password flag), in a file
// (PASSWORD_FILE), in the environment (TSBENCH_PASSWORD), in a connection
// URL (TARGET_URL) and in the write and query URLs (WRITE_URL, QUERY_URL,
// the latter as go-sql-driver's DSN), reaches a MariaDB server that checks it —
// each run writes and verifies its points — and appears in nothing tsbench
// writes: the console (stdout and stderr of every command), the JSON
// summary, the run directory's CSVs and summary, the HDR log, the results
// store (SQLite: the file's bytes and every row of every table; PostgreSQL
// and MySQL: every row of every table), the HTML report, exports, 'runs',
// 'runs show', 'compare', --print-config, and the errors of a refused
// login, to the benchmarked database and to a results store. The results
// stores' own passwords, inside --results or TSBENCH_RESULTS, are held to
// the same rule; the MySQL store logs in as the benchmark's user, with the
// same password, so that its login is checked too.
func TestSecretsNeverWritten(t *testing.T) {
	requireTargetServer(t, "mysql")
	requireTargetServer(t, "postgres")
	password, wrong, storePassword := secret(t), secret(t), secret(t)
	user := createMariaDBUser(t, password)
	pgStore := createResultsDatabase(t, storePassword)
	mysqlStore := "mysql://" + user + ":" + password + "@127.0.0.1:3307/" + secretsStoreDB
	secrets := []string{password, wrong, storePassword}

	// The caller's own TSBENCH_* settings must not decide where the runs
	// go or which password they use.
	clean := []string{"TSBENCH_PASSWORD=", "TSBENCH_RESULTS=", "TSBENCH_DATA_DIR="}
	shape := []string{"--target", "mysql", "--set", "USERNAME=" + user, "--devices", "4", "--clients", "2",
		"--loop", "20", "--quiet"}
	input := t.TempDir() // configuration files: input, not output, so outside the walked directories
	ways := []struct {
		name  string
		args  func(pw string) []string // how pw is given on the command line
		env   func(pw string) []string // and in the environment
		store string                   // --results; "" = SQLite, <data-dir>/results.db
	}{
		{name: "properties file", args: func(pw string) []string {
			return []string{"--properties", writeInputFile(t, input, "config.properties", "PASSWORD="+pw+"\n")}
		}},
		{name: "YAML file", args: func(pw string) []string {
			return []string{"--config", writeInputFile(t, input, "config.yaml", "password: "+pw+"\n")}
		}},
		{name: "flag", args: func(pw string) []string { return []string{"--set", "PASSWORD=" + pw} }, store: pgStore},
		{name: "password file", args: func(pw string) []string {
			return []string{"--set", "PASSWORD_FILE=" + writeInputFile(t, input, "password", pw+"\n")}
		}},
		{name: "environment", env: func(pw string) []string {
			return []string{"TSBENCH_PASSWORD=" + pw, "TSBENCH_RESULTS=" + mysqlStore}
		}},
		{name: "target URL", args: func(pw string) []string {
			return []string{"--target-url", "mysql://" + user + ":" + pw + "@127.0.0.1:3307"}
		}},
		// Writes through a URL, queries and verification through
		// go-sql-driver's DSN form: both log in with the password.
		{name: "write and query URLs", args: func(pw string) []string {
			return []string{"--set", "WRITE_URL=mysql://" + user + ":" + pw + "@127.0.0.1:3307",
				"--set", "QUERY_URL=" + user + ":" + pw + "@tcp(127.0.0.1:3307)/"}
		}},
	}
	argsOf := func(f func(string) []string, pw string) []string {
		if f == nil {
			return nil
		}
		return f(pw)
	}

	for _, w := range ways {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			env := append(append([]string{}, clean...), argsOf(w.env, password)...)
			var store []string
			if w.store != "" {
				store = []string{"--results", w.store}
			}
			args := append([]string{"run", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"), "--hdr-log", dir}, shape...)
			args = append(append(args, argsOf(w.args, password)...), store...)
			r := tsbench(t, env, args...)
			if r.code != 0 || !strings.Contains(r.stdout, "Verify: stored") || !strings.Contains(r.stdout, ": OK") {
				t.Fatalf("exit %d: the run did not write and verify with the password\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			// The password reached the server (the user has no other) and
			// the configuration is recorded, with the password hidden.
			s := readSummary(t, filepath.Join(dir, "s.json"))
			if s.Verify == nil || !s.Verify.OK || s.Verify.StoredPoints == 0 || s.Config["username"] != user ||
				s.Config["password"] != config.Redacted {
				t.Fatalf("summary: verify %+v, username %v, password %v", s.Verify, s.Config["username"], s.Config["password"])
			}
			id, _ := storedRun(t, r)
			outputs := []result{r}
			commands := [][]string{
				{"report", id, "-o", filepath.Join(dir, "report.html")},
				{"runs"},
				{"runs", "--json"},
				{"runs", "show", id},
				{"runs", "export", id, "--format", "json", "-o", filepath.Join(dir, "export.json")},
				{"runs", "export", id, "--format", "hdr", "-o", filepath.Join(dir, "export.hlog")},
				{"runs", "export", id, "--format", "csv", "-o", filepath.Join(dir, "csv")},
				{"compare", filepath.Join(dir, "s.json"), id},
				{"compare", id, id, "--markdown"},
				{"compare", filepath.Join(dir, "s.json"), id, "--json"},
			}
			for _, c := range commands {
				outputs = append(outputs, mustRun(t, env, append(append(c, "--data-dir", dir), store...)...))
			}
			// --print-config loads the password the same way as the run.
			outputs = append(outputs, mustRun(t, env, append([]string{"run", "--print-config", "--target", "mysql"},
				argsOf(w.args, password)...)...))
			if w.store != "" || w.env != nil {
				// A run kept elsewhere is imported into SQLite as well, and read back from it.
				sqlite := []string{"--results", filepath.Join(dir, "results.db")}
				outputs = append(outputs,
					mustRun(t, env, append([]string{"runs", "import", filepath.Join(dir, "s.json")}, sqlite...)...),
					mustRun(t, env, append([]string{"runs", "show", id}, sqlite...)...))
			}
			for _, o := range outputs {
				noSecret(t, "output of tsbench", o.stdout+o.stderr, secrets)
			}
			if n := noSecretInFiles(t, dir, secrets); n < 10 { // s.json, the .hlog, results.db, the run directory, the report, the exports
				t.Fatalf("only %d files written: the check saw too little", n)
			}
			if w.store != "" || w.env != nil {
				var rows string
				if w.store != "" {
					rows = pgRows(t, w.store)
				} else {
					rows = mysqlStoreRows(t)
				}
				if !strings.Contains(rows, id) {
					t.Fatalf("the %s run's results store does not hold run %s", w.name, id)
				}
				noSecret(t, "results store of the "+w.name+" run", rows, secrets)
			}
		})
	}

	// A wrong password, given each way: the server refuses, tsbench says
	// so (exit 1) naming the user, and shows neither password.
	for _, w := range ways {
		t.Run("refused login, "+w.name, func(t *testing.T) {
			dir := t.TempDir()
			env := append(append([]string{}, clean...), argsOf(w.env, wrong)...)
			args := append(append([]string{"run", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"), "--hdr-log", dir},
				shape...), argsOf(w.args, wrong)...)
			if w.env != nil {
				env = append(env, "TSBENCH_RESULTS=") // a refused store login is the next subtest
			}
			r := tsbench(t, env, args...)
			if r.code != 1 || !strings.Contains(r.stderr, "Access denied") || !strings.Contains(r.stderr, user) {
				t.Fatalf("exit %d, want 1 with the server's refusal naming the user\n%s%s", r.code, r.stdout, r.stderr)
			}
			noSecret(t, "refused login", r.stdout+r.stderr, secrets)
			noSecretInFiles(t, dir, secrets)
		})
	}

	// A results store that refuses the login: the run itself succeeds and
	// says where its summary waits for 'runs import'; reading the store
	// fails. Neither shows a password.
	t.Run("refused store login", func(t *testing.T) {
		dir := t.TempDir()
		refused := strings.Replace(mysqlStore, ":"+password+"@", ":"+wrong+"@", 1)
		env := append(append([]string{}, clean...), "TSBENCH_PASSWORD="+password, "TSBENCH_RESULTS="+refused)
		r := tsbench(t, env, append([]string{"run", "--data-dir", dir, "--json", filepath.Join(dir, "s.json")}, shape...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "Verify: stored") || !strings.Contains(r.stderr, "could not store the run") ||
			!strings.Contains(r.stderr, "Access denied") || !strings.Contains(r.stderr, "mysql://"+user+":xxxxx@") {
			t.Fatalf("exit %d, want 0 with the store's refusal, its URL shown without the password\n%s%s", r.code, r.stdout, r.stderr)
		}
		noSecret(t, "run with a refused store login", r.stdout+r.stderr, secrets)
		r2 := tsbench(t, env, "runs", "--data-dir", dir)
		if r2.code != 1 || !strings.Contains(r2.stderr, "Access denied") {
			t.Fatalf("runs on a store that refuses the login: exit %d\n%s%s", r2.code, r2.stdout, r2.stderr)
		}
		noSecret(t, "'runs' with a refused store login", r2.stdout+r2.stderr, secrets)
		noSecretInFiles(t, dir, secrets)
	})
}

// mustRun runs tsbench and fails the test unless it exits 0.
func mustRun(t *testing.T, env []string, args ...string) result {
	t.Helper()
	r := tsbench(t, env, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, r.code, r.stdout, r.stderr)
	}
	return r
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

// noSecretInFiles checks every file under dir, byte for byte, and every row
// of every table of the SQLite databases among them (a value that spans
// two of SQLite's pages is not in the file in one piece); it returns how
// many files it read.
func noSecretInFiles(t *testing.T, dir string, secrets []string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		noSecret(t, path, string(b), secrets)
		if strings.HasPrefix(string(b), "SQLite format 3\x00") {
			db := openDB(t, path)
			noSecret(t, path+" rows", sqlRows(t, path, db, "SELECT name FROM sqlite_master WHERE type = 'table'", `"%s"`), secrets)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// sqlRows is every row of every table that list names in the database
// what, as text; quote
// makes a table name an identifier (fmt verb %s).
func sqlRows(t *testing.T, what string, db *sql.DB, list, quote string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var tables []string
	rows, err := db.QueryContext(ctx, list)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if len(tables) == 0 {
		t.Fatalf("%s has no tables: the check would see nothing", what)
	}
	var b strings.Builder
	for _, tbl := range tables {
		rows, err := db.QueryContext(ctx, "SELECT * FROM "+fmt.Sprintf(quote, tbl))
		if err != nil {
			t.Fatal(err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		values := make([]sql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range values {
			ptrs[i] = &values[i]
		}
		for rows.Next() {
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("%s: %v", tbl, err)
			}
			for _, v := range values {
				b.Write(v)
				b.WriteByte('\t')
			}
			b.WriteByte('\n')
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

// mariaDBRoot is a root connection to the MariaDB service.
func mariaDBRoot(t *testing.T) *sql.DB {
	db, err := sql.Open("mysql", "root@tcp(127.0.0.1:3307)/test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// createMariaDBUser makes a user that logs in with password only, allowed
// the test database and the MySQL results store's; both it and the store
// are dropped at the end.
func createMariaDBUser(t *testing.T, password string) string {
	db := mariaDBRoot(t)
	t.Cleanup(func() {
		db.Exec("DROP USER IF EXISTS " + secretsUser)
		db.Exec("DROP DATABASE IF EXISTS " + secretsStoreDB)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{
		"DROP USER IF EXISTS " + secretsUser,
		"DROP DATABASE IF EXISTS " + secretsStoreDB,
		"CREATE DATABASE " + secretsStoreDB,
		fmt.Sprintf("CREATE USER %s IDENTIFIED BY '%s'", secretsUser, password),
		"GRANT ALL ON test.* TO " + secretsUser,
		"GRANT ALL ON " + secretsStoreDB + ".* TO " + secretsUser,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", strings.ReplaceAll(q, password, "…"), err)
		}
	}
	return secretsUser
}

// mysqlStoreRows is every row of every table of the MySQL results store.
func mysqlStoreRows(t *testing.T) string {
	return sqlRows(t, "the MySQL results store", mariaDBRoot(t), "SELECT table_name FROM information_schema.tables WHERE table_schema = '"+
		secretsStoreDB+"'", secretsStoreDB+".`%s`")
}

// createResultsDatabase makes an empty PostgreSQL database for a results
// store, dropped at the end, and returns its URL with storePassword in it
// (the server trusts local logins, so any password is accepted and must
// still be hidden).
func createResultsDatabase(t *testing.T, storePassword string) string {
	const name = "tsbench_secrets"
	exec := func(qs ...string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		pg, err := pgx.Connect(ctx, "postgres://postgres@127.0.0.1:5433/test?sslmode=disable")
		if err != nil {
			return err
		}
		defer pg.Close(ctx)
		for _, q := range qs {
			if _, err := pg.Exec(ctx, q); err != nil {
				return err
			}
		}
		return nil
	}
	if err := exec("DROP DATABASE IF EXISTS "+name, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Logf("drop the results database: %v", err)
		}
	})
	return "postgres://postgres:" + storePassword + "@127.0.0.1:5433/" + name + "?sslmode=disable"
}

// pgRows is every row of every table of the store's database, as text.
func pgRows(t *testing.T, url string) string {
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
	if len(tables) == 0 {
		t.Fatal("the PostgreSQL results store has no tables")
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
		b.WriteByte('\n')
	}
	return b.String()
}

// A token, given with --set TOKEN=… or in a file (TOKEN_FILE), goes with a
// whole run (victoriametrics sends it as a bearer; the VictoriaMetrics of
// scripts/services takes requests without authentication, so the run
// succeeds) and appears in nothing tsbench writes: the console, the JSON
// summary (where token and token_file are redacted), the run directory,
// the HDR log, the results store and --print-config.
func TestTokenNeverWritten(t *testing.T) {
	inParallel(t)
	requireTargetServer(t, "victoriametrics")
	token := secret(t)
	input := t.TempDir()
	clean := []string{"TSBENCH_PASSWORD=", "TSBENCH_RESULTS=", "TSBENCH_DATA_DIR="}
	for _, w := range []struct{ name, set, redacted string }{
		{"flag", "TOKEN=" + token, "token"},
		{"token file", "TOKEN_FILE=" + writeInputFile(t, input, "token", token+"\n"), "token_file"},
	} {
		t.Run(w.name, func(t *testing.T) {
			dir := t.TempDir()
			r := tsbench(t, clean, "run", "--data-dir", dir, "--json", filepath.Join(dir, "s.json"), "--hdr-log", dir,
				"--target", "victoriametrics", "--set", "DB_NAME=tsbench_token", "--set", w.set,
				"--devices", "4", "--clients", "2", "--loop", "20", "--quiet")
			if r.code != 0 || !strings.Contains(r.stdout, "Verify: stored") || !strings.Contains(r.stdout, ": OK") {
				t.Fatalf("exit %d: the run did not write and verify\n%s\n%s", r.code, r.stdout, r.stderr)
			}
			s := readSummary(t, filepath.Join(dir, "s.json"))
			if s.Config["token"] != config.Redacted || s.Config[w.redacted] != config.Redacted {
				t.Fatalf("summary: token %v, %s %v; want both %q", s.Config["token"], w.redacted, s.Config[w.redacted], config.Redacted)
			}
			p := mustRun(t, clean, "run", "--print-config", "--target", "victoriametrics", "--set", w.set)
			for _, o := range []result{r, p} {
				noSecret(t, "output of tsbench", o.stdout+o.stderr, []string{token})
			}
			if n := noSecretInFiles(t, dir, []string{token}); n < 3 {
				t.Fatalf("only %d files written: the check saw too little", n)
			}
		})
	}
}
