package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/tsbench/tsbench/internal/run"
)

// versionLine is what `tsbench version` and `tsbench --version` print: the
// version, the commit it was built from (with "+dirty" when the work tree
// had changes) and its date, and the Go toolchain. The commit comes from
// the VCS stamp go build embeds when it builds inside a git checkout.
func versionLine() string {
	commit, date := buildStamp()
	if run.Commit != "" {
		commit = run.Commit
	}
	line := "tsbench " + run.Version
	if commit != "" {
		line += " commit " + commit
	}
	if run.BuildDate != "" {
		line += " built " + run.BuildDate
	} else if date != "" {
		line += " committed " + date
	}
	return fmt.Sprintf("%s (%s, %s/%s)", line, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func buildStamp() (commit, date string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", ""
	}
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
			if len(commit) > 12 {
				commit = commit[:12]
			}
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if commit != "" && dirty {
		commit += "+dirty"
	}
	return commit, date
}
