package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/redact"
)

// repeatedArgs checks the command line's flags before cobra runs it (see
// repeatedFlag); a command line cobra cannot place is left to its errors.
func repeatedArgs(root *cobra.Command, args []string) error {
	cmd, rest, err := root.Find(args)
	if err != nil {
		return nil
	}
	return repeatedFlag(cmd, rest)
}

// repeatedFlag refuses a flag of one value given twice with two values
// (--clients 4 ... --clients 8). pflag keeps the last silently; which was
// meant is anyone's guess, as for --set given a key twice. The same value
// given twice is taken; flags that collect (--set, lists) may repeat.
// args are the command line after the command's own name (cobra's Find).
func repeatedFlag(cmd *cobra.Command, args []string) error {
	type given struct{ value, shown string }
	first := map[string]given{}
	for i := 0; i < len(args); i++ {
		f, value, used := flagAt(cmd, args, i)
		i += used
		if f == nil || collects(f) {
			continue
		}
		shown := "--" + f.Name
		if value != f.NoOptDefVal || f.NoOptDefVal == "" {
			// Secrets and URLs' passwords hidden: --results takes a URL too.
			shown += "=" + redact.URL(config.ShowValue(f.Name, value))
		}
		if was, ok := first[f.Name]; ok && was.value != value {
			return usageError("%s given twice (%s, then %s): give it once", "--"+f.Name, was.shown, shown)
		}
		first[f.Name] = given{value, shown}
	}
	return nil
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
