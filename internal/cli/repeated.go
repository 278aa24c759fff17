package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/redact"
)

// repeatedArgs warns, before cobra runs the command line, of each flag of
// one value given twice with two values (--clients 4 ... --clients 8):
// pflag keeps the last, as a file's key set twice keeps its last line, and
// says nothing. Scripts give defaults that a later flag overrides, so the
// last still counts; but the user is told, and --strict refuses it with
// exit 2 as it refuses the other warnings. A command line cobra cannot
// place is left to its errors.
func repeatedArgs(root *cobra.Command, args []string, stderr io.Writer) error {
	cmd, rest, err := root.Find(args)
	if err != nil {
		return nil
	}
	repeats, last := repeatedFlags(cmd, rest)
	if len(repeats) == 0 {
		return nil
	}
	if strict, _ := strconv.ParseBool(last["strict"]); strict && cmd.Flags().Lookup("strict") != nil {
		return exit.Usagef("--strict: %d warning(s) refused:\n  %s", len(repeats), strings.Join(repeats, "\n  "))
	}
	for _, r := range repeats {
		fmt.Fprintln(stderr, "tsbench: warning:", r)
	}
	return nil
}

// repeatedFlags lists the flags of one value that args give twice with
// two values, and the last value of each flag. The same value given twice
// says nothing; flags that collect (--set, --threshold) may repeat. args
// are the command line after the command's own name (cobra's Find).
func repeatedFlags(cmd *cobra.Command, args []string) (repeats []string, last map[string]string) {
	type given struct{ value, shown string }
	first := map[string]given{}
	last = map[string]string{}
	for i := 0; i < len(args); i++ {
		f, value, used := flagAt(cmd, args, i)
		i += used
		if f == nil || collects(f) {
			continue
		}
		last[f.Name] = value
		shown := "--" + f.Name
		if value != f.NoOptDefVal || f.NoOptDefVal == "" {
			// Secrets and URLs' passwords hidden: --results takes a URL too.
			shown += "=" + redact.URL(config.ShowValue(f.Name, value))
		}
		was, ok := first[f.Name]
		switch {
		case !ok:
			first[f.Name] = given{value, shown}
		case was.value != value:
			repeats = append(repeats, fmt.Sprintf("--%s given twice (%s, then %s); the last counts", f.Name, was.shown, shown))
			first[f.Name] = given{value, shown}
		}
	}
	return repeats, last
}

// flagAt reads the flag argument args[i], as pflag will: the flag (nil
// when args[i] is none, or is several one-letter flags run together), its
// value, and how many arguments after args[i] that value took.
func flagAt(cmd *cobra.Command, args []string, i int) (f *pflag.Flag, value string, used int) {
	a := args[i]
	if a == "--" {
		return nil, "", len(args) // the rest are arguments
	}
	var inline bool
	switch {
	case strings.HasPrefix(a, "--"):
		var name string
		name, value, inline = strings.Cut(a[2:], "=")
		f = lookupFlag(cmd, name, "")
	case len(a) >= 2 && a[0] == '-':
		f = lookupFlag(cmd, "", a[1:2])
		rest := a[2:]
		if f != nil && f.NoOptDefVal != "" && rest != "" && rest[0] != '=' {
			return nil, "", 0 // -qv: leave the bundles to pflag
		}
		if rest != "" {
			value, inline = strings.TrimPrefix(rest, "="), true
		}
	}
	switch {
	case f == nil || inline:
	case f.NoOptDefVal != "":
		value = f.NoOptDefVal
	case i+1 < len(args):
		value, used = args[i+1], 1
	}
	return f, value, used
}

// lookupFlag finds a flag of cmd by name or by shorthand, its own or one a
// parent passes down.
func lookupFlag(cmd *cobra.Command, name, short string) *pflag.Flag {
	for c := cmd; c != nil; c = c.Parent() {
		for _, fs := range []*pflag.FlagSet{c.Flags(), c.PersistentFlags()} {
			if name != "" {
				if f := fs.Lookup(name); f != nil {
					return f
				}
			} else if f := fs.ShorthandLookup(short); f != nil {
				return f
			}
		}
	}
	return nil
}

// collects reports whether each use of f adds a value instead of
// replacing the last: pflag's slices, arrays, maps and counts.
func collects(f *pflag.Flag) bool {
	t := f.Value.Type()
	return strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") ||
		strings.HasPrefix(t, "stringTo") || t == "count"
}
