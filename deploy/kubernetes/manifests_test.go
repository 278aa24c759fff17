// Package kubernetes_test checks the Kubernetes manifests of
// deploy/kubernetes: each document decodes strictly into the Kubernetes API
// type of its kind (an unknown or misspelled field fails), and the pieces
// are wired together as 'tsbench run --workers' needs them.
package kubernetes_test

import (
	"bytes"
	"errors"
	"fmt"
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

// manifests are the decoded documents of every *.yaml file here.
type manifests struct {
	jobs       map[string]*batchv1.Job
	configMaps map[string]*corev1.ConfigMap
	secrets    map[string]*corev1.Secret
}

// strict decodes a YAML document as the API server decodes JSON: field
// names match case-sensitively, and unknown or duplicate fields are errors.
func strict(doc []byte, v any) error {
	j, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	problems, err := sigsjson.UnmarshalStrict(j, v)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return errors.Join(problems...)
	}
	return nil
}

// decode reads one document strictly into the type of its kind.
func decode(m *manifests, name string, doc []byte) error {
	var head struct{ Kind string }
	if err := yaml.Unmarshal(doc, &head); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	var err error
	switch head.Kind {
	case "Job":
		j := &batchv1.Job{}
		err = strict(doc, j)
		m.jobs[j.Name] = j
	case "ConfigMap":
		c := &corev1.ConfigMap{}
		err = strict(doc, c)
		m.configMaps[c.Name] = c
	case "Secret":
		s := &corev1.Secret{}
		err = strict(doc, s)
		m.secrets[s.Name] = s
	default:
		return fmt.Errorf("%s: kind %q: this test knows Job, ConfigMap and Secret", name, head.Kind)
	}
	if err != nil {
		return fmt.Errorf("%s (%s): %w", name, head.Kind, err)
	}
	return nil
}

func load(t *testing.T) *manifests {
	t.Helper()
	files, err := filepath.Glob("*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	m := &manifests{jobs: map[string]*batchv1.Job{}, configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, doc := range bytes.Split(b, []byte("\n---")) {
			if len(bytes.TrimSpace(stripComments(doc))) == 0 {
				continue
			}
			if err := decode(m, fmt.Sprintf("%s document %d", f, i+1), doc); err != nil {
				t.Fatal(err)
			}
		}
	}
	return m
}

func stripComments(doc []byte) []byte {
	var out [][]byte
	for _, l := range bytes.Split(doc, []byte("\n")) {
		if !bytes.HasPrefix(bytes.TrimSpace(l), []byte("#")) {
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// The strict decode is what catches a misspelled field: prove it can fail.
func TestStrictDecodeRefusesUnknownFields(t *testing.T) {
	for _, doc := range []string{
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n  completionsMode: Indexed\n",
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      containers: [{name: a, imag: x}]\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: x}\nstringdata: {a: b}\n",
	} {
		m := &manifests{jobs: map[string]*batchv1.Job{}, configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
		if err := decode(m, "test", []byte(doc)); err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("decoded %q without complaint (%v)", doc, err)
		}
	}
}

// runFlags are the flags of 'tsbench run' the Job may use (they mirror
// 'tsbench run --help'); a flag outside it is a typo the Job would only
// reveal in the cluster.
var runFlags = []string{"--config", "--workers", "--worker-index", "--group", "--barrier-timeout", "--start-at", "--quiet", "--results", "--set"}

// image is the image the guide builds and the Jobs run.
const image = "tsbench:0.1.0"

func TestWorkersJob(t *testing.T) {
	m := load(t)
	job := m.jobs["tsbench-run-1"]
	if job == nil {
		t.Fatalf("no Job tsbench-run-1 among %d jobs", len(m.jobs))
	}
	s := job.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatalf("completionMode %v, want Indexed: the completion index is the worker index", s.CompletionMode)
	}
	if s.BackoffLimit == nil || *s.BackoffLimit != 0 {
		t.Errorf("backoffLimit %v, want 0: a retried worker would run its share twice", s.BackoffLimit)
	}
	if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("restartPolicy %q, want Never", s.Template.Spec.RestartPolicy)
	}
	if len(s.Template.Spec.Containers) != 1 {
		t.Fatalf("%d containers, want 1", len(s.Template.Spec.Containers))
	}
	c := s.Template.Spec.Containers[0]
	args := flagValues(t, c.Args)
	workers, err := strconv.Atoi(args["--workers"])
	if err != nil || workers < 2 {
		t.Fatalf("--workers %q", args["--workers"])
	}
	if s.Parallelism == nil || s.Completions == nil || int(*s.Parallelism) != workers || int(*s.Completions) != workers {
		t.Fatalf("parallelism %s, completions %s: both must be --workers = %d", int32Text(s.Parallelism), int32Text(s.Completions), workers)
	}
	if args["--worker-index"] != "$(JOB_COMPLETION_INDEX)" || args["--group"] != "$(TSBENCH_GROUP)" {
		t.Fatalf("--worker-index %q, --group %q", args["--worker-index"], args["--group"])
	}
	env := envOf(c)
	if f := env["JOB_COMPLETION_INDEX"].ValueFrom; f == nil || f.FieldRef == nil ||
		f.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Fatalf("JOB_COMPLETION_INDEX is not the pod's completion index: %+v", env["JOB_COMPLETION_INDEX"])
	}
	if f := env["TSBENCH_GROUP"].ValueFrom; f == nil || f.FieldRef == nil || !strings.Contains(f.FieldRef.FieldPath, "job-name") {
		t.Fatalf("TSBENCH_GROUP is not the job name: %+v", env["TSBENCH_GROUP"])
	}
	checkSecrets(t, m, c)
	checkContainer(t, c)
	if sc := s.Template.Spec.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Errorf("the pod does not require a non-root user")
	}
	cfg := benchConfig(t, m, c, args["--config"])
	if cfg.Clients < workers {
		t.Errorf("CLIENT_NUMBER %d < %d workers: tsbench would refuse it", cfg.Clients, workers)
	}
}

func TestMergeJob(t *testing.T) {
	m := load(t)
	job := m.jobs["tsbench-merge-1"]
	if job == nil {
		t.Fatal("no merge Job")
	}
	c := job.Spec.Template.Spec.Containers[0]
	if len(c.Args) < 3 || c.Args[0] != "merge" || c.Args[1] != "--group" || c.Args[2] != "tsbench-run-1" {
		t.Fatalf("merge args %v: want merge --group <the workers' job name>", c.Args)
	}
	checkSecrets(t, m, c)
	checkContainer(t, c)
}

// flagValues reads 'run FLAG VALUE ...' args, refusing unknown flags.
func flagValues(t *testing.T, args []string) map[string]string {
	t.Helper()
	if len(args) == 0 || args[0] != "run" {
		t.Fatalf("args %v: want 'run' first", args)
	}
	out := map[string]string{}
	for i := 1; i < len(args); i++ {
		name, value, inline := strings.Cut(args[i], "=")
		if !slices.Contains(runFlags, name) {
			t.Fatalf("arg %q: not a 'tsbench run' flag the Job may use (%v)", args[i], runFlags)
		}
		switch {
		case inline:
		case name == "--quiet":
			value = "true"
		case i+1 < len(args):
			i++
			value = args[i]
		default:
			t.Fatalf("flag %s has no value", name)
		}
		out[name] = value
	}
	return out
}

func envOf(c corev1.Container) map[string]corev1.EnvVar {
	out := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		out[e.Name] = e
	}
	return out
}

var credentialsInURL = regexp.MustCompile(`://[^/@\s]+:[^/@\s]+@`)

// checkSecrets: the passwords come from the Secret by reference, the Secret
// exists and has the keys, and no plain value carries a credential.
func checkSecrets(t *testing.T, m *manifests, c corev1.Container) {
	t.Helper()
	env := envOf(c)
	for _, name := range []string{"TSBENCH_PASSWORD", "TSBENCH_RESULTS"} {
		e, ok := env[name]
		if !ok || e.Value != "" || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			t.Fatalf("%s must come from a secretKeyRef: %+v", name, e)
		}
		ref := e.ValueFrom.SecretKeyRef
		sec := m.secrets[ref.Name]
		if sec == nil {
			t.Fatalf("%s refers to Secret %q, which no manifest defines", name, ref.Name)
		}
		if _, ok := sec.StringData[ref.Key]; !ok {
			if _, ok := sec.Data[ref.Key]; !ok {
				t.Fatalf("Secret %s has no key %q", ref.Name, ref.Key)
			}
		}
	}
	for _, e := range c.Env {
		low := strings.ToLower(e.Name)
		if e.Value != "" && (credentialsInURL.MatchString(e.Value) || strings.Contains(low, "password") || strings.Contains(low, "token")) {
			t.Fatalf("env %s has a plain value that looks like a secret", e.Name)
		}
	}
	for _, a := range c.Args {
		if credentialsInURL.MatchString(a) || strings.Contains(strings.ToLower(a), "password") {
			t.Fatalf("arg %q carries a credential", a)
		}
	}
}

// checkContainer: the image the guide builds, resources bounded, a
// read-only root with the data directory on a volume.
func checkContainer(t *testing.T, c corev1.Container) {
	t.Helper()
	if c.Image != image {
		t.Errorf("image %q, want %q (what the README builds)", c.Image, image)
	}
	for _, r := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if _, ok := c.Resources.Requests[r]; !ok {
			t.Errorf("no %s request", r)
		}
		if _, ok := c.Resources.Limits[r]; !ok {
			t.Errorf("no %s limit", r)
		}
	}
	if sc := c.SecurityContext; sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
		t.Errorf("the root filesystem is not read-only")
	}
	dataDir := envOf(c)["TSBENCH_DATA_DIR"].Value
	if dataDir == "" || !slices.ContainsFunc(c.VolumeMounts, func(v corev1.VolumeMount) bool { return v.MountPath == dataDir }) {
		t.Errorf("TSBENCH_DATA_DIR %q is not a mounted volume (the root filesystem is read-only)", dataDir)
	}
}

// benchConfig is the configuration the Job's --config names, read by
// tsbench's own loader from the ConfigMap mounted there.
func benchConfig(t *testing.T, m *manifests, c corev1.Container, path string) *config.Config {
	t.Helper()
	dir, file := filepath.Split(path)
	var cmName string
	for _, vm := range c.VolumeMounts {
		if filepath.Clean(vm.MountPath) == filepath.Clean(dir) {
			cmName = vm.Name
		}
	}
	if cmName == "" {
		t.Fatalf("--config %s is on no volume", path)
	}
	var cm *corev1.ConfigMap
	for _, job := range m.jobs {
		for _, v := range job.Spec.Template.Spec.Volumes {
			if v.Name == cmName && v.ConfigMap != nil {
				cm = m.configMaps[v.ConfigMap.Name]
			}
		}
	}
	if cm == nil {
		t.Fatalf("volume %s is not a ConfigMap of these manifests", cmName)
	}
	text, ok := cm.Data[file]
	if !ok {
		t.Fatalf("ConfigMap %s has no key %s", cm.Name, file)
	}
	cfg := config.Default()
	if _, err := config.LoadYAML(cfg, strings.NewReader(text), cm.Name+"/"+file); err != nil {
		t.Fatal(err)
	}
	if err := config.Resolve(cfg); err != nil {
		t.Fatal(err)
	}
	if regexp.MustCompile(`(?im)^\s*(password|token)\s*:`).MatchString(text) {
		t.Fatalf("the ConfigMap sets a password or token: it belongs in the Secret")
	}
	return cfg
}

func int32Text(p *int32) string {
	if p == nil {
		return "unset"
	}
	return strconv.Itoa(int(*p))
}
