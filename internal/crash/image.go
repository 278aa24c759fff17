package crash

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/tsbench/tsbench/internal/redact"
)

// image is how a server process ran, read from /proc before it is killed,
// so that it can be started again as it was: a server the user started by
// hand, or one tsbench found on its port, is started again without a
// restart command (CRASH_RESTART) or a service script.
type image struct {
	pid  int32
	exe  string   // the executable (/proc/PID/exe), else Args[0]
	args []string // its command line, Args[0] included
	dir  string   // its working directory
	env  []string
	uid  uint32 // its real user and group
	gid  uint32
	// stdout and stderr are the files its output went to, reopened for
	// appending; "" where it went elsewhere (a pipe, a terminal, nothing).
	stdout, stderr string
}

// procRoot is where the process information is read; tests point it
// elsewhere.
var procRoot = "/proc"

// readImage reads process pid's image. It fails where /proc cannot say
// (another user's process read by an unprivileged tsbench hides its
// environment and directory).
func readImage(pid int32) (*image, error) {
	dir := filepath.Join(procRoot, strconv.Itoa(int(pid)))
	cmdline, err := os.ReadFile(filepath.Join(dir, "cmdline"))
	if err != nil {
		return nil, fmt.Errorf("crash: read the command line of process %d: %w", pid, err)
	}
	args := splitNUL(cmdline)
	if len(args) == 0 {
		return nil, fmt.Errorf("crash: process %d has no command line (a kernel thread, or a zombie)", pid)
	}
	environ, err := os.ReadFile(filepath.Join(dir, "environ"))
	if err != nil {
		return nil, fmt.Errorf("crash: read the environment of process %d: %w", pid, err)
	}
	cwd, err := os.Readlink(filepath.Join(dir, "cwd"))
	if err != nil {
		return nil, fmt.Errorf("crash: read the working directory of process %d: %w", pid, err)
	}
	uid, gid, err := owner(filepath.Join(dir, "status"))
	if err != nil {
		return nil, fmt.Errorf("crash: read the user of process %d: %w", pid, err)
	}
	img := &image{pid: pid, exe: args[0], args: args, dir: cwd, env: splitNUL(environ), uid: uid, gid: gid}
	// An executable replaced since it started reads "... (deleted)": its
	// command line's name then finds what is there now.
	if exe, err := os.Readlink(filepath.Join(dir, "exe")); err == nil && !strings.HasSuffix(exe, " (deleted)") {
		img.exe = exe
	}
	img.stdout = outputFile(filepath.Join(dir, "fd", "1"))
	img.stderr = outputFile(filepath.Join(dir, "fd", "2"))
	return img, nil
}

func splitNUL(b []byte) []string {
	var out []string
	for _, f := range bytes.Split(bytes.TrimRight(b, "\x00"), []byte{0}) {
		if len(f) > 0 || out != nil {
			out = append(out, string(f))
		}
	}
	return out
}

// owner reads the real user and group from a /proc status file.
func owner(status string) (uid, gid uint32, err error) {
	f, err := os.Open(status)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	found := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		name, rest, ok := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(rest)
		if !ok || len(fields) == 0 || (name != "Uid" && name != "Gid") {
			continue
		}
		n, err := strconv.ParseUint(fields[0], 10, 32)
		if err != nil {
			return 0, 0, fmt.Errorf("%s: %s %q: %w", status, name, fields[0], err)
		}
		if name == "Uid" {
			uid = uint32(n)
		} else {
			gid = uint32(n)
		}
		found++
	}
	if found < 2 {
		return 0, 0, fmt.Errorf("%s: no Uid and Gid lines", status)
	}
	return uid, gid, nil
}

// outputFile is the regular file a descriptor link names, or "".
func outputFile(link string) string {
	target, err := os.Readlink(link)
	if err != nil || !filepath.IsAbs(target) || strings.HasPrefix(target, "/dev/") {
		return ""
	}
	if st, err := os.Stat(target); err != nil || !st.Mode().IsRegular() {
		return ""
	}
	return target
}

// start starts the image again, in a session of its own (a Ctrl-C to
// tsbench does not reach it) and as its user where that differs from
// tsbench's. It returns the new process's pid; tsbench reaps it should it
// end first.
func (img *image) start() (int, error) {
	cmd := exec.Command(img.exe)
	cmd.Args, cmd.Dir, cmd.Env = img.args, img.dir, img.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if uint32(os.Getuid()) != img.uid || uint32(os.Getgid()) != img.gid {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: img.uid, Gid: img.gid}
	}
	for _, out := range []struct {
		path string
		to   *io.Writer
	}{{img.stdout, &cmd.Stdout}, {img.stderr, &cmd.Stderr}} {
		if out.path == "" {
			continue // exec's default: /dev/null
		}
		f, err := os.OpenFile(out.path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return 0, fmt.Errorf("crash: reopen %s for the restarted server's output: %w", out.path, err)
		}
		defer f.Close() // the child holds its own copy
		*out.to = f
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("crash: start %s again: %w", img.exe, err)
	}
	go cmd.Wait() //nolint:errcheck // reaped whatever its end: the run learns of it from its port
	return cmd.Process.Pid, nil
}

// secretArg matches a command-line argument that carries a secret in its
// value: --password=..., -Dsome.token=..., key=... .
var secretArg = regexp.MustCompile(`(?i)^(-*[\w.-]*(?:pass|secret|token|key|credential)[\w.-]*[=:]).+$`)

// hideSecrets is a shell command as the crash line shows it: each word's
// secret (an argument's or a URL's password, an assignment's) hidden.
func hideSecrets(command string) string {
	words := strings.Fields(command)
	for i, w := range words {
		w = redact.URL(w)
		if m := secretArg.FindStringSubmatch(w); m != nil {
			w = m[1] + redact.Mask
		}
		words[i] = w
	}
	return strings.Join(words, " ")
}

// String is the command line, as the crash line shows it: secrets in
// arguments (and in URLs) hidden, the environment left out.
func (img *image) String() string {
	shown := make([]string, len(img.args))
	for i, a := range img.args {
		a = redact.URL(a)
		if m := secretArg.FindStringSubmatch(a); m != nil {
			a = m[1] + redact.Mask
		}
		if strings.ContainsAny(a, " \t\"'") || a == "" {
			a = strconv.Quote(a)
		}
		shown[i] = a
	}
	return strings.Join(shown, " ")
}
