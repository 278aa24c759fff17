// Package spark runs the analytics phase (ts.Analytic queries, the das-events
// scenario's) on Apache Spark instead of the target's own SQL, as the WSO2
// DAS study did: Spark reads the event store — the mysql or postgres
// target's tables — over JDBC, runs each query as Spark SQL and writes its
// answer back into the database with INSERT OVERWRITE into a result table
// (tsbench_spark_<name>). Spark times each run; this package then reads each
// result table back and checks it against the generator (analytics.Expect,
// analytics.Check), exactly as analytics.Run checks the target's own answers.
//
// The job is scripts/spark/das_analytics.py, built into the binary (package
// scripts/spark) and written to a temporary file for each spark-submit;
// Spark and the JDBC drivers come from scripts/ci/install-spark.sh. The
// master is local[*] unless Engine.Master names a cluster
// (spark://host:7077): nothing else changes, but the executors must then
// reach the database at the target's HOST (not 127.0.0.1).
package spark

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/analytics"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
	sparkjob "github.com/tsbench/tsbench/scripts/spark"
)

// DefaultMaster runs Spark inside the job's own JVM with one worker thread
// per core.
const DefaultMaster = "local[*]"

// InstallScript installs what this package runs.
const InstallScript = "scripts/ci/install-spark.sh"

// passwordEnv carries the database password to the job, so that it never
// appears on a command line.
const passwordEnv = "TSBENCH_SPARK_PASSWORD"

// Engine is how the Spark job is run. The zero value runs it in local mode
// with what install-spark.sh installed.
type Engine struct {
	// Master is Spark's master URL: local[*] (default) or spark://host:7077.
	Master string
	// Submit is spark-submit; default $TSBENCH_SPARK_SUBMIT, else the one
	// install-spark.sh writes under the cache directory.
	Submit string
	// Jars are the JDBC drivers; default every jar install-spark.sh fetched.
	Jars []string
	// Job is a das_analytics.py to run instead of the built-in one;
	// default $TSBENCH_SPARK_JOB, else "" (the built-in one).
	Job string
	// DriverMemory is spark.driver.memory; default 1g.
	DriverMemory string
	// Conf are further Spark settings (--conf key=value).
	Conf map[string]string
	// Log, when set, receives Spark's own log (warnings and errors).
	Log io.Writer
}

// CacheDir is where the install scripts cache what they fetch:
// $TSBENCH_CACHE_DIR, else ~/.cache/tsbench.
func CacheDir() string {
	if d := os.Getenv("TSBENCH_CACHE_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return filepath.Join(os.TempDir(), "tsbench-cache")
	}
	return filepath.Join(home, ".cache", "tsbench")
}

// Locate fills in the defaults of e and checks that Spark, the JDBC drivers
// and the job are there; the error names the install script (or the job
// that is not there).
func (e Engine) Locate() (Engine, error) {
	if e.Master == "" {
		e.Master = DefaultMaster
	}
	if e.DriverMemory == "" {
		e.DriverMemory = "1g"
	}
	home := filepath.Join(CacheDir(), "spark")
	if e.Submit == "" {
		e.Submit = os.Getenv("TSBENCH_SPARK_SUBMIT")
	}
	if e.Submit == "" {
		e.Submit = filepath.Join(home, "bin", "spark-submit")
	}
	if fi, err := os.Stat(e.Submit); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		return e, fmt.Errorf("spark: no spark-submit at %s: install Spark with %s (or set TSBENCH_SPARK_SUBMIT)", e.Submit, InstallScript)
	}
	if len(e.Jars) == 0 {
		jars, _ := filepath.Glob(filepath.Join(home, "jdbc", "*.jar"))
		if len(jars) == 0 {
			return e, fmt.Errorf("spark: no JDBC drivers in %s: install them with %s", filepath.Join(home, "jdbc"), InstallScript)
		}
		e.Jars = jars
	}
	if e.Job == "" {
		e.Job = os.Getenv("TSBENCH_SPARK_JOB")
	}
	if e.Job == "" {
		return e, nil
	}
	if fi, err := os.Stat(e.Job); err != nil || fi.IsDir() {
		return e, fmt.Errorf("spark: the Spark job %s is not a file (unset TSBENCH_SPARK_JOB to run the built-in %s)", e.Job, sparkjob.Name)
	}
	// spark-submit runs in the job's temporary directory, where a relative
	// path would name nothing.
	job, err := filepath.Abs(e.Job)
	if err != nil {
		return e, fmt.Errorf("spark: the Spark job %s: %w", e.Job, err)
	}
	e.Job = job
	return e, nil
}

// jobFile is the job spark-submit runs: e.Job, or the built-in one written
// into dir (the job's temporary directory, removed after it).
func (e Engine) jobFile(dir string) (string, error) {
	if e.Job != "" {
		return e.Job, nil
	}
	p := filepath.Join(dir, sparkjob.Name)
	if err := os.WriteFile(p, []byte(sparkjob.Job), 0o644); err != nil {
		return "", fmt.Errorf("spark: write the job: %w", err)
	}
	return p, nil
}

// jobQuery is one query as the job reads it (--queries).
type jobQuery struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Tag    string `json:"tag"`
	Value  string `json:"value"`
	Sensor int    `json:"sensor"`
	Flag   int    `json:"flag"`
	Table  string `json:"table"`
}

// jobLine is one line the job prints: a run's time or its error.
type jobLine struct {
	Name    string   `json:"name"`
	Run     int      `json:"run"`
	Seconds *float64 `json:"seconds"`
	Error   string   `json:"error"`
}

// supported are the kinds the job implements.
var supported = map[ts.AnalyticKind]bool{ts.TagAggregates: true, ts.DeviceRange: true, ts.TagAverage: true,
	ts.TagAverageDiff: true, ts.CountRows: true}

var unsafe = regexp.MustCompile(`[^a-z0-9_]+`)

// ResultTable is the table that holds query name's answer.
func ResultTable(name string) string {
	return "tsbench_spark_" + unsafe.ReplaceAllString(strings.ToLower(name), "_")
}

// Run runs each query runs times on Spark against the event store of
// targetName (mysql or postgres) reached with o (the target's connection
// options), where rows [0, rows) of every device were written, and checks
// the answer of each query's last run against the generator. Seconds are
// Spark's own timings of each INSERT OVERWRITE, from submitting the
// statement to the answer being written. A query that fails in Spark has
// its Error set; the returned error says why the job as a whole could not
// run (Spark missing, the job failed to start or died), with an Outcome,
// carrying the same error, for every query that got no answer.
func (e Engine) Run(ctx context.Context, targetName string, o targets.Options, g *gen.Generator, rows int64, qs []ts.Analytic, runs int) ([]analytics.Outcome, error) {
	runs = max(1, runs)
	st, err := storeFor(targetName, o)
	if err != nil {
		return nil, err
	}
	e, err = e.Locate()
	if err != nil {
		return nil, err
	}
	out, jq, byName, err := plan(qs)
	if err != nil || len(jq) == 0 {
		return out, err
	}

	db, err := st.open(ctx)
	if err != nil {
		return nil, st.redactErr(err)
	}
	defer db.close()
	// A result table left by an earlier run must not pass for this one's.
	for _, q := range jq {
		if err := db.exec(ctx, "DROP TABLE IF EXISTS "+q.Table); err != nil {
			return nil, st.redactErr(fmt.Errorf("spark: drop %s: %w", q.Table, err))
		}
	}

	lines, jobErr := e.submit(ctx, st, jq, runs)
	// Answers written before a deadline are still read and checked.
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	for _, l := range lines {
		i, ok := byName[l.Name]
		if !ok {
			continue
		}
		o := &out[i]
		if l.Error != "" {
			o.Error = "spark: " + st.redact(l.Error)
			continue
		}
		if l.Seconds != nil {
			o.Seconds = append(o.Seconds, *l.Seconds)
			o.Runs++
		}
	}
	for _, q := range jq {
		o := &out[byName[q.Name]]
		if o.Error != "" {
			continue
		}
		if o.Runs < runs {
			if jobErr != nil {
				o.Error, _, _ = strings.Cut(jobErr.Error(), "\n") // the log lines are in the returned error
			} else {
				o.Error = fmt.Sprintf("spark: the job reported %d of %d runs", o.Runs, runs)
			}
			continue
		}
		got, err := db.result(rctx, q.Table)
		if err != nil {
			o.Error = st.redact(fmt.Sprintf("spark: read %s: %v", q.Table, err))
			continue
		}
		o.Rows = got.Points
		want := analytics.Expect(g, &qs[byName[q.Name]], rows)
		if msg := analytics.Check(got, want); msg != "" {
			o.Error = fmt.Sprintf("answer differs from the generator's: %s", msg)
			continue
		}
		o.Checked = true
	}
	return out, jobErr
}

// plan is an outcome per query, those Spark does not run marked
// unsupported, and the job's queries, with each one's index in qs by name.
func plan(qs []ts.Analytic) ([]analytics.Outcome, []jobQuery, map[string]int, error) {
	out := make([]analytics.Outcome, len(qs))
	var jq []jobQuery
	byName := map[string]int{}
	for i := range qs {
		a := &qs[i]
		out[i] = analytics.Outcome{Name: a.Name, Kind: a.Kind.String()}
		if !supported[a.Kind] {
			out[i].Unsupported = true
			continue
		}
		if _, dup := byName[a.Name]; dup {
			return nil, nil, nil, fmt.Errorf("spark: two analytics queries are named %q", a.Name)
		}
		byName[a.Name] = i
		jq = append(jq, jobQuery{Name: a.Name, Kind: a.Kind.String(), Tag: a.Tag, Value: a.Value,
			Sensor: a.Sensor, Flag: a.Flag, Table: ResultTable(a.Name)})
	}
	return out, jq, byName, nil
}

// submit runs the job and returns the lines it printed; the error says why
// it failed, with the end of Spark's log.
func (e Engine) submit(ctx context.Context, st *store, jq []jobQuery, runs int) ([]jobLine, error) {
	tmp, err := os.MkdirTemp("", "tsbench-spark-")
	if err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	defer os.RemoveAll(tmp)
	logConf := filepath.Join(tmp, "log4j2.properties")
	if err := os.WriteFile(logConf, []byte(log4j2), 0o644); err != nil {
		return nil, fmt.Errorf("spark: %w", err)
	}
	job, err := e.jobFile(tmp)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, e.Submit, e.submitArgs(job, logConf, st, jq, runs)...)
	cmd.Env = append(os.Environ(), passwordEnv+"="+st.password)
	if strings.HasPrefix(e.Master, "local") {
		// Scratch space (shuffle files) goes with the job's temporary
		// directory; the environment rather than spark.local.dir, which
		// Spark warns is overridden by cluster managers.
		cmd.Env = append(cmd.Env, "SPARK_LOCAL_IP=127.0.0.1", "SPARK_LOCAL_DIRS="+filepath.Join(tmp, "local"))
	}
	cmd.Dir = tmp
	lines, err := e.runJob(cmd, st)
	if ctx.Err() != nil {
		return lines, fmt.Errorf("spark: the job did not finish in time (%w); %w", ctx.Err(), err)
	}
	if err != nil {
		return lines, fmt.Errorf("spark: %s on %s: %w", filepath.Base(job), e.Master, err)
	}
	return lines, nil
}

// submitArgs are spark-submit's arguments for the job: Spark's settings,
// then the job's own (the password comes by the environment).
func (e Engine) submitArgs(job, logConf string, st *store, jq []jobQuery, runs int) []string {
	queries, _ := json.Marshal(jq)
	conf := map[string]string{
		"spark.driver.memory": e.DriverMemory,
		"spark.ui.enabled":    "false",
		// Spark's own log configuration, quiet (warnings and errors).
		"spark.driver.extraJavaOptions": "-Dlog4j2.configurationFile=file:" + logConf,
	}
	local := strings.HasPrefix(e.Master, "local")
	if local {
		// The benchmark may run in a network namespace with only a
		// loopback interface, where the host name resolves to nothing.
		conf["spark.driver.host"] = "127.0.0.1"
		conf["spark.driver.bindAddress"] = "127.0.0.1"
	}
	for k, v := range e.Conf {
		conf[k] = v
	}
	args := []string{"--master", e.Master, "--name", "tsbench-das-analytics",
		"--jars", strings.Join(e.Jars, ","), "--driver-class-path", strings.Join(e.Jars, string(os.PathListSeparator))}
	keys := slices.Sorted(maps.Keys(conf))
	for _, k := range keys {
		args = append(args, "--conf", k+"="+conf[k])
	}
	return append(args, job, "--jdbc-url", st.jdbcURL, "--driver", st.driverClass, "--user", st.user,
		"--password-env", passwordEnv, "--queries", string(queries), "--runs", strconv.Itoa(runs))
}

// runJob runs spark-submit and returns the job's result lines; the error
// ends with the last lines of Spark's log.
func (e Engine) runJob(cmd *exec.Cmd, st *store) ([]jobLine, error) {
	setProcessGroup(cmd)
	cmd.WaitDelay = 10 * time.Second
	stderr := &tail{max: 40, redact: st.redact, to: e.Log}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", e.Submit, err)
	}
	// Spark runs the Python driver with its standard error merged into
	// standard output, so the job's own messages arrive here too: they
	// join Spark's log.
	var lines []jobLine
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		b := bytes.TrimSpace(sc.Bytes())
		var l jobLine
		if len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &l) == nil && l.Name != "" {
			lines = append(lines, l)
			continue
		}
		if len(b) > 0 {
			stderr.line(string(b))
		}
	}
	if err := cmd.Wait(); err != nil {
		return lines, fmt.Errorf("%w; last log lines:\n%s", err, stderr.String())
	}
	return lines, nil
}

// log4j2 keeps Spark's console log to warnings and errors (it would print
// every stage at INFO otherwise).
const log4j2 = `rootLogger.level = warn
rootLogger.appenderRef.stderr.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %d{HH:mm:ss} %p %c{1}: %m%n%ex
logger.jetty.name = org.sparkproject.jetty
logger.jetty.level = warn
logger.nativeloader.name = org.apache.hadoop.util.NativeCodeLoader
logger.nativeloader.level = error
logger.macaddress.name = io.netty.util.internal.MacAddressUtil
logger.macaddress.level = error
`

// tail keeps the last lines written to it (Spark's log), redacted, and
// copies them to another writer.
type tail struct {
	mu      sync.Mutex
	max     int
	lines   []string
	partial []byte
	redact  func(string) string
	to      io.Writer
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.add(string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	return len(p), nil
}

// line adds a whole line from another stream.
func (t *tail) line(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.add(s)
}

func (t *tail) add(s string) {
	s = t.redact(s)
	if t.to != nil {
		fmt.Fprintln(t.to, s)
	}
	t.lines = append(t.lines, s)
	if len(t.lines) > t.max {
		t.lines = t.lines[1:]
	}
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := t.lines
	if len(t.partial) > 0 {
		lines = append(lines[:len(lines):len(lines)], t.redact(string(t.partial)))
	}
	if len(lines) == 0 {
		return "(none)"
	}
	return strings.Join(lines, "\n")
}
