// Package kubernetes_test checks the Kubernetes manifests of
// deploy/kubernetes before anyone applies them: every document decodes
// strictly into the Kubernetes API type of its kind (an unknown, misspelled
// or wrongly cased field fails, as it would with kubectl's strict field
// validation), and the pieces are wired together as 'tsbench run --workers'
// needs them. The mutation tests break the real manifests on purpose and
// expect each check to notice.
package kubernetes_test

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/tsbench/tsbench/internal/config"
)

// ---- reading and strict decoding -----------------------------------------

// manifests are the decoded documents of a set of manifest files, by name.
type manifests struct {
	jobs       map[string]*batchv1.Job
	configMaps map[string]*corev1.ConfigMap
	secrets    map[string]*corev1.Secret
}

// docSeparator is a YAML document marker line.
var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*(#.*)?$`)

// splitDocuments splits a multi-document YAML file, dropping documents
// that hold only comments and blank lines.
func splitDocuments(b []byte) []string {
	var docs []string
	for _, d := range docSeparator.Split(string(b), -1) {
		for _, l := range strings.Split(d, "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				docs = append(docs, d)
				break
			}
		}
	}
	return docs
}

// parse decodes every document of files (name to content), each strictly
// into the type its kind names.
func parse(files map[string][]byte) (*manifests, error) {
	m := &manifests{
		jobs:       map[string]*batchv1.Job{},
		configMaps: map[string]*corev1.ConfigMap{},
		secrets:    map[string]*corev1.Secret{},
	}
	names := slices.Sorted(maps.Keys(files))
	for _, n := range names {
		for i, doc := range splitDocuments(files[n]) {
			if err := m.add([]byte(doc)); err != nil {
				return nil, fmt.Errorf("%s, document %d: %w", n, i+1, err)
			}
		}
	}
	return m, nil
}

func (m *manifests) add(doc []byte) error {
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Metadata   struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return err
	}
	if head.Metadata.Name == "" {
		return errors.New("no metadata.name")
	}
	type target struct {
		apiVersion string
		obj        any
		store      func()
	}
	var t target
	switch head.Kind {
	case "Job":
		j := &batchv1.Job{}
		t = target{"batch/v1", j, func() { m.jobs[j.Name] = j }}
	case "ConfigMap":
		c := &corev1.ConfigMap{}
		t = target{"v1", c, func() { m.configMaps[c.Name] = c }}
	case "Secret":
		s := &corev1.Secret{}
		t = target{"v1", s, func() { m.secrets[s.Name] = s }}
	default:
		return fmt.Errorf("kind %q: this test decodes Job, ConfigMap and Secret; teach it the new kind", head.Kind)
	}
	if head.APIVersion != t.apiVersion {
		return fmt.Errorf("%s %s: apiVersion %q, want %q", head.Kind, head.Metadata.Name, head.APIVersion, t.apiVersion)
	}
	if err := strictDecode(doc, t.obj); err != nil {
		return fmt.Errorf("%s %s: %w", head.Kind, head.Metadata.Name, err)
	}
	t.store()
	return nil
}

// strictDecode decodes one YAML document into v as the API server decodes
// a request: a key twice in the YAML, an unknown field, or a field name in
// the wrong case ("CompletionMode" is not "completionMode", which
// encoding/json would accept) is an error. sigs.k8s.io/yaml's
// UnmarshalStrict sees the duplicate keys (which converting the YAML to
// JSON would drop); sigs.k8s.io/json, the decoder Kubernetes itself uses,
// the rest.
func strictDecode(doc []byte, v any) error {
	if err := yaml.UnmarshalStrict(doc, v); err != nil {
		return err
	}
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	problems, err := sigsjson.UnmarshalStrict(j, v)
	if err != nil {
		return err
	}
	return errors.Join(problems...)
}

// ---- the contract with tsbench --------------------------------------------

// flagSpec describes a flag the manifests may pass to tsbench: whether it
// takes a value as the next argument, and the configuration key it sets
// ("" for none), as the CLI maps it.
type flagSpec struct {
	value bool
	key   string
}

// runFlags are the flags of 'tsbench run' the worker Job may use. They
// mirror 'tsbench run --help' (the scale-out subset); anything else is a
// typo or a flag that does not belong in a manifest (--results would put
// the store's password in the pod spec). --quiet is optional-valued, so a
// value must be attached (--quiet=false), never the next argument.
var runFlags = map[string]flagSpec{
	"--config":          {value: true},
	"--workers":         {value: true, key: "WORKERS"},
	"--worker-index":    {value: true, key: "WORKER_INDEX"},
	"--group":           {value: true, key: "RUN_GROUP"},
	"--barrier-timeout": {value: true, key: "BARRIER_TIMEOUT"},
	"--start-at":        {value: true, key: "START_AT"},
	"--quiet":           {key: "IS_QUIET_MODE"},
}

// mergeFlags mirror 'tsbench merge --help' likewise.
var mergeFlags = map[string]flagSpec{
	"--group":   {value: true},
	"--workers": {value: true},
	"--verify":  {},
}

const (
	completionIndexPath = "metadata.annotations['batch.kubernetes.io/job-completion-index']"
	jobNamePath         = "metadata.labels['batch.kubernetes.io/job-name']"
)

// secretEnv are the variables tsbench reads credentials from; they must
// come from a Secret, never from a literal value.
var secretEnv = []string{"TSBENCH_PASSWORD", "TSBENCH_RESULTS"}

// parseArgs reads 'COMMAND --flag value ...' as tsbench's flag parser does,
// refusing flags outside allowed and positional arguments.
func parseArgs(args []string, command string, allowed map[string]flagSpec) (map[string]string, error) {
	if len(args) == 0 || args[0] != command {
		return nil, fmt.Errorf("args %q: want %q first", args, command)
	}
	out := map[string]string{}
	for i := 1; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		spec, ok := allowed[name]
		if !ok {
			return nil, fmt.Errorf("arg %q: not a 'tsbench %s' flag these manifests may use", args[i], command)
		}
		if _, twice := out[name]; twice {
			return nil, fmt.Errorf("flag %s given twice", name)
		}
		switch {
		case inline:
		case !spec.value:
			value = "true"
		case i+1 < len(args) && !strings.HasPrefix(args[i+1], "--"):
			i++
			value = args[i]
		default:
			return nil, fmt.Errorf("flag %s has no value", name)
		}
		out[name] = value
	}
	return out, nil
}

// ---- the checks --------------------------------------------------------------

// checker collects every problem rather than stopping at the first.
type checker struct {
	m    *manifests
	errs []error
}

func (c *checker) fail(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf(format, args...))
}

// check runs every wiring check; image is the image the guide builds.
func check(m *manifests, image string) []error {
	c := &checker{m: m}
	var workers, merges []*batchv1.Job
	for _, name := range sortedKeys(m.jobs) {
		j := m.jobs[name]
		if j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion {
			workers = append(workers, j)
		} else {
			merges = append(merges, j)
		}
	}
	if len(workers) != 1 {
		c.fail("%d Jobs with completionMode Indexed, want exactly 1 (the workers)", len(workers))
	}
	if len(m.configMaps) == 0 || len(m.secrets) == 0 {
		c.fail("want a ConfigMap and a Secret among the manifests")
	}
	for _, j := range workers {
		c.workerJob(j)
	}
	for _, j := range merges {
		c.mergeJob(j, workers)
	}
	for _, j := range append(workers, merges...) {
		c.pod(j, image)
	}
	for _, name := range sortedKeys(m.secrets) {
		c.exampleSecret(m.secrets[name])
	}
	return c.errs
}

// workerJob: Indexed, N pods at once, no retries, and 'tsbench run' with
// the worker index and group wired from the pod's own metadata.
func (c *checker) workerJob(j *batchv1.Job) {
	s := j.Spec
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 {
		c.fail("Job %s: backoffLimit %s, want 0: a retried worker would run its share a second time", j.Name, int32Text(s.BackoffLimit))
	}
	ctr, args, ok := c.containerArgs(j, "run", runFlags)
	if !ok {
		return
	}
	for _, f := range []string{"--config", "--workers", "--worker-index", "--group"} {
		if args[f] == "" {
			c.fail("Job %s: no %s", j.Name, f)
		}
	}
	workers, err := strconv.Atoi(args["--workers"])
	if err != nil || workers < 1 {
		c.fail("Job %s: --workers %q is not a count of workers", j.Name, args["--workers"])
		return
	}
	if s.Parallelism == nil || int(*s.Parallelism) != workers || s.Completions == nil || int(*s.Completions) != workers {
		c.fail("Job %s: parallelism %s and completions %s must both be --workers = %d (all workers meet at the barrier at once)",
			j.Name, int32Text(s.Parallelism), int32Text(s.Completions), workers)
	}
	env := envByName(ctr)
	if args["--worker-index"] != "$(JOB_COMPLETION_INDEX)" {
		c.fail("Job %s: --worker-index %q, want $(JOB_COMPLETION_INDEX)", j.Name, args["--worker-index"])
	}
	if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != completionIndexPath {
		c.fail("Job %s: env JOB_COMPLETION_INDEX must come from fieldRef %s", j.Name, completionIndexPath)
	}
	if args["--group"] != "$(TSBENCH_GROUP)" {
		c.fail("Job %s: --group %q, want $(TSBENCH_GROUP) (the Job's name)", j.Name, args["--group"])
	}
	if e := env["TSBENCH_GROUP"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil || e.ValueFrom.FieldRef.FieldPath != jobNamePath {
		c.fail("Job %s: env TSBENCH_GROUP must come from fieldRef %s", j.Name, jobNamePath)
	}
	text, ok := c.configFile(j, ctr, args["--config"])
	if !ok {
		return
	}
	// Resolve the configuration as each worker's tsbench will: the file,
	// then the flags, with the pod's variables expanded.
	for i := range workers {
		if err := c.resolveWorker(j, ctr, text, i); err != nil {
			c.fail("Job %s, worker %d of %d: %v", j.Name, i, workers, err)
		}
	}
}

// resolveWorker loads the bench configuration with tsbench's own loader,
// applies worker i's flags and resolves it.
func (c *checker) resolveWorker(j *batchv1.Job, ctr corev1.Container, text string, i int) error {
	cfg := config.Default()
	warnings, err := config.LoadYAML(cfg, strings.NewReader(text), "bench.yaml")
	if err != nil {
		return err
	}
	if len(warnings) > 0 {
		// An unknown key is only a warning to tsbench; here it is a typo.
		return fmt.Errorf("bench.yaml: %s", strings.Join(warnings, "; "))
	}
	vars, err := podEnv(j, ctr, i)
	if err != nil {
		return err
	}
	args, err := parseArgs(expand(ctr.Args, vars), "run", runFlags)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(args) {
		if key := runFlags[name].key; key != "" {
			if err := config.Set(cfg, key, args[name]); err != nil {
				return fmt.Errorf("%s %s: %w", name, args[name], err)
			}
		}
	}
	if err := config.Resolve(cfg); err != nil {
		return err
	}
	if lo, hi := cfg.ClientRange(); hi <= lo {
		return fmt.Errorf("no clients of CLIENT_NUMBER = %d for this worker", cfg.Clients)
	}
	return nil
}

// podEnv are the values the container's plain and downward-API variables
// take in pod i of Job j (the Secret's are left out).
func podEnv(j *batchv1.Job, ctr corev1.Container, i int) (map[string]string, error) {
	vars := map[string]string{}
	for _, e := range ctr.Env {
		switch {
		case e.ValueFrom == nil:
			vars[e.Name] = e.Value
		case e.ValueFrom.FieldRef != nil:
			switch p := e.ValueFrom.FieldRef.FieldPath; p {
			case completionIndexPath:
				vars[e.Name] = strconv.Itoa(i)
			case jobNamePath:
				vars[e.Name] = j.Name
			default:
				return nil, fmt.Errorf("env %s: fieldRef %s is not one this test knows", e.Name, p)
			}
		}
	}
	return vars, nil
}

var varRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// expand replaces $(VAR) as the kubelet does in args. A reference to an
// undefined variable is kept as written, which tsbench would then be given
// literally: the flag parser or the config check reports it.
func expand(args []string, vars map[string]string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = varRef.ReplaceAllStringFunc(a, func(ref string) string {
			if v, ok := vars[ref[2:len(ref)-1]]; ok {
				return v
			}
			return ref
		})
	}
	return out
}

// configFile finds the text of --config in the ConfigMap mounted at its
// directory.
func (c *checker) configFile(j *batchv1.Job, ctr corev1.Container, path string) (string, bool) {
	dir, file := filepath.Split(path)
	var volume string
	for _, vm := range ctr.VolumeMounts {
		if filepath.Clean(vm.MountPath) == filepath.Clean(dir) {
			volume = vm.Name
		}
	}
	var cm *corev1.ConfigMap
	for _, v := range j.Spec.Template.Spec.Volumes {
		if v.Name == volume && v.ConfigMap != nil {
			cm = c.m.configMaps[v.ConfigMap.Name]
			if cm == nil {
				c.fail("Job %s: volume %s is ConfigMap %q, which no manifest defines", j.Name, volume, v.ConfigMap.Name)
				return "", false
			}
		}
	}
	if cm == nil {
		c.fail("Job %s: --config %s is on no ConfigMap volume", j.Name, path)
		return "", false
	}
	text, ok := cm.Data[file]
	if !ok {
		c.fail("Job %s: ConfigMap %s has no key %s (--config %s)", j.Name, cm.Name, file, path)
		return "", false
	}
	var keys map[string]any
	if err := yaml.Unmarshal([]byte(text), &keys); err != nil {
		c.fail("ConfigMap %s, %s: %v", cm.Name, file, err)
		return "", false
	}
	for k := range keys {
		if secretName.MatchString(k) {
			c.fail("ConfigMap %s sets %s: credentials belong in the Secret", cm.Name, k)
		}
	}
	return text, true
}

// mergeJob: one pod running 'tsbench merge --group' with the workers' Job
// name, which is their group.
func (c *checker) mergeJob(j *batchv1.Job, workers []*batchv1.Job) {
	s := j.Spec
	if (s.Parallelism != nil && *s.Parallelism != 1) || (s.Completions != nil && *s.Completions != 1) {
		c.fail("Job %s: a merge runs once: parallelism %s, completions %s", j.Name, int32Text(s.Parallelism), int32Text(s.Completions))
	}
	_, args, ok := c.containerArgs(j, "merge", mergeFlags)
	if !ok {
		return
	}
	if !slices.ContainsFunc(workers, func(w *batchv1.Job) bool { return w.Name == args["--group"] }) {
		c.fail("Job %s: merge --group %q, want the workers' Job name", j.Name, args["--group"])
	}
}

// pod: what every Job's pod needs, whatever it runs.
func (c *checker) pod(j *batchv1.Job, image string) {
	ps := j.Spec.Template.Spec
	if ps.RestartPolicy != corev1.RestartPolicyNever {
		c.fail("Job %s: restartPolicy %q, want Never", j.Name, ps.RestartPolicy)
	}
	ctr, ok := c.onlyContainer(j)
	if !ok {
		return
	}
	if ctr.Image != image {
		c.fail("Job %s: image %q, want %q, the one the README builds", j.Name, ctr.Image, image)
	}
	if !nonRoot(ps.SecurityContext, ctr.SecurityContext) {
		c.fail("Job %s: runAsNonRoot is not true", j.Name)
	}
	if sc := ctr.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		c.fail("Job %s: readOnlyRootFilesystem is not true", j.Name)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		req, okReq := ctr.Resources.Requests[r]
		lim, okLim := ctr.Resources.Limits[r]
		switch {
		case !okReq || !okLim:
			c.fail("Job %s: %s request and limit must both be set", j.Name, r)
		case req.Cmp(lim) > 0:
			c.fail("Job %s: %s request %s above its limit %s", j.Name, r, req.String(), lim.String())
		}
	}
	c.dataDir(j, ctr)
	c.credentials(j, ctr)
}

// dataDir: with a read-only root, the directories tsbench writes must be
// emptyDir mounts: TSBENCH_DATA_DIR (run results, embedded databases) and
// the temporary directory ($TMPDIR, else /tmp), where a run spills its
// per-second histograms to keep its memory flat.
func (c *checker) dataDir(j *batchv1.Job, ctr corev1.Container) {
	env := envByName(ctr)
	dir := env["TSBENCH_DATA_DIR"].Value
	if dir == "" {
		c.fail("Job %s: env TSBENCH_DATA_DIR is not set", j.Name)
	} else if !writableEmptyDir(j, ctr, dir) {
		c.fail("Job %s: TSBENCH_DATA_DIR %s is not a writable emptyDir mount", j.Name, dir)
	}
	tmp := cmp.Or(env["TMPDIR"].Value, "/tmp")
	if !writableEmptyDir(j, ctr, tmp) {
		c.fail("Job %s: the temporary directory %s is not a writable emptyDir mount", j.Name, tmp)
	}
}

func writableEmptyDir(j *batchv1.Job, ctr corev1.Container, dir string) bool {
	for _, vm := range ctr.VolumeMounts {
		if filepath.Clean(vm.MountPath) != filepath.Clean(dir) || vm.ReadOnly {
			continue
		}
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.Name == vm.Name && v.EmptyDir != nil {
				return true
			}
		}
	}
	return false
}

var (
	credentialsInURL = regexp.MustCompile(`://[^/@\s:]*:[^/@\s]+@`)
	secretName       = regexp.MustCompile(`(?i)password|passwd|token|secret|_pwd?$`)
)

// credentials: TSBENCH_PASSWORD and TSBENCH_RESULTS come from a Secret the
// manifests define, by a key it has; nothing else carries a credential in
// plain text.
func (c *checker) credentials(j *batchv1.Job, ctr corev1.Container) {
	env := envByName(ctr)
	for _, name := range secretEnv {
		e, ok := env[name]
		if !ok || e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			c.fail("Job %s: env %s must come from a secretKeyRef", j.Name, name)
			continue
		}
		ref := e.ValueFrom.SecretKeyRef
		sec := c.m.secrets[ref.Name]
		if sec == nil {
			c.fail("Job %s: env %s refers to Secret %q, which no manifest defines", j.Name, name, ref.Name)
			continue
		}
		_, inString := sec.StringData[ref.Key]
		_, inData := sec.Data[ref.Key]
		if !inString && !inData {
			c.fail("Job %s: env %s refers to key %q, which Secret %s lacks", j.Name, name, ref.Key, ref.Name)
		}
	}
	for _, e := range ctr.Env {
		if e.Value == "" {
			continue
		}
		if credentialsInURL.MatchString(e.Value) || secretName.MatchString(e.Name) {
			c.fail("Job %s: env %s has a literal value that looks like a credential", j.Name, e.Name)
		}
	}
	for _, a := range append(slices.Clone(ctr.Command), ctr.Args...) {
		if credentialsInURL.MatchString(a) || secretName.MatchString(a) {
			c.fail("Job %s: argument %q carries a credential", j.Name, a)
		}
	}
}

// exampleSecret: the Secret manifest is a template; every value is a
// placeholder to replace.
func (c *checker) exampleSecret(s *corev1.Secret) {
	if len(s.Data) > 0 {
		c.fail("Secret %s: data is set; the example holds placeholders in stringData only", s.Name)
	}
	for _, k := range sortedKeys(s.StringData) {
		if !strings.Contains(s.StringData[k], "CHANGE-ME") {
			c.fail("Secret %s: %s is not a CHANGE-ME placeholder", s.Name, k)
		}
	}
}

func (c *checker) onlyContainer(j *batchv1.Job) (corev1.Container, bool) {
	ps := j.Spec.Template.Spec
	if len(ps.Containers) != 1 || len(ps.InitContainers) > 0 {
		c.fail("Job %s: %d containers, %d init containers: want one container", j.Name, len(ps.Containers), len(ps.InitContainers))
		return corev1.Container{}, false
	}
	return ps.Containers[0], true
}

// containerArgs is the Job's one container and its arguments, parsed as
// tsbench's command takes them (parseArgs); false, with the failure
// recorded, when either is wrong.
func (c *checker) containerArgs(j *batchv1.Job, command string, flags map[string]flagSpec) (corev1.Container, map[string]string, bool) {
	ctr, ok := c.onlyContainer(j)
	if !ok {
		return ctr, nil, false
	}
	args, err := parseArgs(ctr.Args, command, flags)
	if err != nil {
		c.fail("Job %s: %v", j.Name, err)
		return ctr, nil, false
	}
	return ctr, args, true
}

func nonRoot(pod *corev1.PodSecurityContext, ctr *corev1.SecurityContext) bool {
	if ctr != nil && ctr.RunAsNonRoot != nil {
		return *ctr.RunAsNonRoot
	}
	return pod != nil && pod.RunAsNonRoot != nil && *pod.RunAsNonRoot
}

func envByName(c corev1.Container) map[string]corev1.EnvVar {
	out := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		out[e.Name] = e
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func int32Text(p *int32) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(int(*p))
}

// ---- the image the guide builds ---------------------------------------------

var dockerBuild = regexp.MustCompile(`docker build\b[^\n]*?\s-t\s+(\S+)`)

// guideImage is the image tag every 'docker build -t' in the guide and in
// the Dockerfile's header builds; they must agree.
func guideImage(readme, dockerfile string) (string, error) {
	var tags []string
	for _, text := range []string{readme, dockerfile} {
		for _, m := range dockerBuild.FindAllStringSubmatch(text, -1) {
			tags = append(tags, m[1])
		}
	}
	if len(tags) == 0 {
		return "", errors.New("no 'docker build -t IMAGE' in README.md or the Dockerfile")
	}
	for _, t := range tags[1:] {
		if t != tags[0] {
			return "", fmt.Errorf("the guide builds %q and also %q", tags[0], t)
		}
	}
	return tags[0], nil
}

// ---- the tests ----------------------------------------------------------------

// readFiles reads the manifests of this directory.
func readFiles(t *testing.T) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob("*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no *.yaml manifests here")
	}
	files := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files[n] = b
	}
	return files
}

func image(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	dockerfile, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := guideImage(string(readme), string(dockerfile))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestManifestsDecodeStrictly(t *testing.T) {
	m, err := parse(readFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.jobs) == 0 || len(m.configMaps) == 0 || len(m.secrets) == 0 {
		t.Fatalf("decoded %d Jobs, %d ConfigMaps, %d Secrets: want each kind", len(m.jobs), len(m.configMaps), len(m.secrets))
	}
}

func TestManifestsWiring(t *testing.T) {
	m, err := parse(readFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range check(m, image(t)) {
		t.Error(err)
	}
}

// The strict decode is what catches a misspelled field: prove it can fail,
// and that it still accepts a correct document.
func TestStrictDecode(t *testing.T) {
	const job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n"
	for _, tc := range []struct {
		name, doc, want string // want: "" decodes, else a part of the error
	}{
		{"valid", job + "  completionMode: Indexed\n  completions: 2\n", ""},
		{"misspelled field", job + "  completionsMode: Indexed\n", `unknown field "completionsMode"`},
		{"wrong case", job + "  CompletionMode: Indexed\n", `unknown field "spec.CompletionMode"`},
		{"nested unknown field", job + "  template:\n    spec:\n      containers: [{name: a, imag: x}]\n", `unknown field "imag"`},
		{"inlined metadata, wrong case", job + "  template:\n    metadata: {Labels: {a: b}}\n", `unknown field "spec.template.metadata.Labels"`},
		{"duplicate key", job + "  parallelism: 2\n  parallelism: 4\n", `already set`},
		{"wrong type", job + "  parallelism: four\n", `cannot unmarshal string`},
		{"resource quantity", job + "  template:\n    spec:\n      containers: [{name: a, resources: {limits: {cpu: 2x}}}]\n", `quantities must match`},
		{"secret, wrong case", "apiVersion: v1\nkind: Secret\nmetadata: {name: x}\nstringdata: {a: b}\n", `unknown field "stringdata"`},
		{"configmap, unknown field", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndatas: {a: b}\n", `unknown field "datas"`},
		{"unknown kind", "apiVersion: v1\nkind: Service\nmetadata: {name: x}\n", `kind "Service"`},
		{"wrong apiVersion", "apiVersion: batch/v1beta1\nkind: Job\nmetadata: {name: x}\n", `apiVersion "batch/v1beta1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse(map[string][]byte{"test.yaml": []byte(tc.doc)})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused a valid document: %v", err)
			case tc.want != "" && err == nil:
				t.Fatalf("decoded without complaint, want an error with %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Fatalf("error %q, want one with %q", err, tc.want)
			}
		})
	}
}

func TestSplitDocuments(t *testing.T) {
	in := "# header\n---\na: 1\n--- # second\nb: 2\n---\n# only a comment\n---\n\n"
	got := splitDocuments([]byte(in))
	if len(got) != 2 || !strings.Contains(got[0], "a: 1") || !strings.Contains(got[1], "b: 2") {
		t.Fatalf("split into %q", got)
	}
}

// Each mutation breaks one thing in the real manifests; the decode or one
// of the checks must say so. This is the proof that the checks can fail.
func TestMutationsAreCaught(t *testing.T) {
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"misspelled completionMode", "job.yaml", "completionMode:", "completionsMode:", "unknown field"},
		{"not indexed", "job.yaml", "completionMode: Indexed", "completionMode: NonIndexed", "Indexed"},
		{"parallelism differs", "job.yaml", "parallelism: 4", "parallelism: 3", "parallelism 3"},
		{"completions differ", "job.yaml", "completions: 4", "completions: 5", "completions 5"},
		{"workers arg differs", "job.yaml", `- "4"`, `- "2"`, "--workers = 2"},
		{"retries", "job.yaml", "backoffLimit: 0", "backoffLimit: 6", "backoffLimit 6"},
		{"index not wired", "job.yaml", "- $(JOB_COMPLETION_INDEX)", "- \"0\"", "--worker-index"},
		{"index from a label", "job.yaml", "metadata.annotations['batch.kubernetes.io/job-completion-index']", "metadata.labels['batch.kubernetes.io/job-completion-index']", "JOB_COMPLETION_INDEX"},
		{"group from elsewhere", "job.yaml", jobNamePath, "metadata.name", "TSBENCH_GROUP"},
		{"unknown flag", "job.yaml", "- --quiet", "- --quite", `"--quite"`},
		{"bad barrier timeout", "job.yaml", "- 10m", "- ten-minutes", "BARRIER_TIMEOUT"},
		{"password in plain text", "job.yaml", "secretKeyRef:\n                  name: tsbench-secrets\n                  key: password", "fieldRef:\n                  fieldPath: metadata.name", "TSBENCH_PASSWORD"},
		{"credentials in a value", "job.yaml", "value: /var/lib/tsbench", "value: postgres://u:pw@h/db", "credential"},
		{"secret name mismatch", "secret.example.yaml", "name: tsbench-secrets", "name: tsbench-secret", "no manifest defines"},
		{"secret key missing", "secret.example.yaml", "  results-url:", "  results_url:", `key "results-url"`},
		{"real secret value", "secret.example.yaml", "password: CHANGE-ME", "password: hunter2", "placeholder"},
		{"no cpu limit", "job.yaml", "limits:\n              cpu: \"2\"\n", "limits:\n", "cpu request and limit"},
		{"root allowed", "job.yaml", "runAsNonRoot: true", "runAsNonRoot: false", "runAsNonRoot"},
		{"writable root", "job.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "readOnlyRootFilesystem"},
		{"data dir not mounted", "job.yaml", "mountPath: /var/lib/tsbench", "mountPath: /var/lib/other", "TSBENCH_DATA_DIR"},
		{"no writable /tmp", "merge-job.yaml", "mountPath: /tmp", "mountPath: /scratch", "temporary directory /tmp"},
		{"another image", "job.yaml", "image: tsbench:0.1.0", "image: tsbench:latest", "the one the README builds"},
		{"config key misspelled", "configmap.yaml", "client_number:", "client_numbr:", "client_numbr"},
		{"too few clients", "configmap.yaml", "client_number: 16", "client_number: 3", "WORKERS"},
		{"password in config", "configmap.yaml", "username: tsbench", "username: tsbench\n    password: x", "credentials belong in the Secret"},
		{"config file renamed", "configmap.yaml", "bench.yaml: |", "benchmark.yaml: |", "has no key bench.yaml"},
		{"merge group differs", "merge-job.yaml", `"tsbench-run-1"]`, `"tsbench-run-2"]`, "the workers' Job name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := readFiles(t)
			text := string(files[tc.file])
			if strings.Count(text, tc.old) != 1 {
				t.Fatalf("%s holds %q %d times, want once: update this mutation", tc.file, tc.old, strings.Count(text, tc.old))
			}
			files[tc.file] = []byte(strings.Replace(text, tc.old, tc.new, 1))
			m, err := parse(files)
			var errs []error
			if err != nil {
				errs = []error{err}
			} else {
				errs = check(m, image(t))
			}
			if len(errs) == 0 {
				t.Fatal("went unnoticed")
			}
			joined := errors.Join(errs...).Error()
			if !strings.Contains(joined, tc.want) {
				t.Fatalf("errors %q, want one with %q", joined, tc.want)
			}
		})
	}
}
