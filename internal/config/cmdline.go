package config

import (
	"fmt"
	"strconv"
	"strings"
)

// CommandLine applies the command line's settings, each --set KEY=VALUE
// and each of the CLI's key flags, in order. A file may give a key again
// (the last line counts, with a warning), and the command line overrides
// the files; but one setting given twice on the command line with two
// values is refused: which was meant is anyone's guess, and the order of
// the arguments (or of the flags' table, for a key flag) should not decide
// it. The same value given twice is taken.
type CommandLine struct {
	c    *Config
	seen map[string]givenAt
}

// givenAt is how the command line first gave a setting: the argument as
// the user wrote it (secrets redacted), the key it named, and the value.
type givenAt struct {
	spelling string
	key      *Key // nil for a target option
	value    string
}

// NewCommandLine applies command-line settings to c.
func NewCommandLine(c *Config) *CommandLine {
	return &CommandLine{c: c, seen: map[string]givenAt{}}
}

// SetArg applies one "KEY=VALUE" argument of --set, as SetArgWarn does,
// and refuses it when an earlier argument gave the same setting another
// value.
func (l *CommandLine) SetArg(arg string) (string, error) {
	k, v, ok := strings.Cut(arg, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return "", &Error{Source: "flag", Reason: fmt.Sprintf("--set %q: want KEY=VALUE", arg)}
	}
	return l.set("--set "+shellWord(strings.TrimSpace(k)+"="+argValue(k, v)), k, v)
}

// SetFlag applies the value of the key flag --name, which sets key, as
// SetWarn does, and refuses it when an earlier argument gave the same
// setting another value.
func (l *CommandLine) SetFlag(name, key, value string) (string, error) {
	return l.set("--"+name+" "+shellWord(argValue(key, value)), key, value)
}

func (l *CommandLine) set(spelling, key, value string) (string, error) {
	type part struct {
		id    string
		k     *Key
		value string
	}
	var parts []part
	if opt, ok := targetOption(key); ok {
		parts = append(parts, part{id: "target." + opt, value: strings.TrimSpace(value)})
	} else if k := lookup(key); k != nil && k.Name == "TARGET_OPTIONS" {
		// Each pair is the target option target.NAME would set.
		for _, pair := range strings.Split(value, ",") {
			if opt, v, ok := strings.Cut(pair, "="); ok && strings.TrimSpace(opt) != "" {
				parts = append(parts, part{id: "target." + strings.TrimSpace(opt), value: strings.TrimSpace(v)})
			}
		}
	} else if k != nil {
		parts = append(parts, part{id: setting(key), k: k, value: strings.TrimSpace(value)})
	}
	before := *l.c // the settings before this one, to compare values on
	msg, err := SetWarn(l.c, key, value)
	if err != nil {
		return "", err
	}
	// A TARGET_OPTIONS value naming an option twice is one argument: the
	// last pair counts, as in a file.
	for _, p := range parts {
		first, dup := l.seen[p.id]
		if !dup || first.spelling == spelling {
			l.seen[p.id] = givenAt{spelling: spelling, key: p.k, value: p.value}
			continue
		}
		if !sameArgValue(&before, first.key, p.k, first.value, p.value) {
			// No Source: the two arguments say where.
			return "", &Error{Reason: fmt.Sprintf("%s and %s both set %s: give it once",
				first.spelling, spelling, p.id)}
		}
	}
	return msg, nil
}

// sameArgValue reports whether two values given for one setting are the
// same: the same text, or, for one key that is no secret, two texts its
// setter reads as one value (4 and 04, 30s and 30000ms). Two keys of one
// setting (DURATION and TEST_MAX_TIME) are never the same: as in a file,
// which was meant is anyone's guess. base is a configuration to try the
// values on; it is left as it is.
func sameArgValue(base *Config, ka, kb *Key, a, b string) bool {
	if ka != kb {
		return false
	}
	if a == b {
		return true
	}
	if ka == nil || ka.set == nil || ka.get == nil || ka.Secret || isSecretName(ka.Name) || ka.family() {
		return false
	}
	ca, cb := *base, *base
	if ka.set(&ca, a) != nil || ka.set(&cb, b) != nil {
		return false
	}
	return fmt.Sprint(ka.get(&ca)) == fmt.Sprint(ka.get(&cb))
}

// argValue is value as a message may show it: a secret's hidden, a
// URL's password too.
func argValue(key, value string) string {
	if opt, ok := targetOption(key); ok {
		return redact(opt, value)
	}
	name := key
	if k := lookup(key); k != nil {
		if k.Name == "TARGET_OPTIONS" {
			return redactPairs(value)
		}
		if k.Secret && value != "" {
			return Redacted
		}
		if !k.family() {
			name = k.Name
		}
	}
	return redact(name, value)
}

// shellWord quotes s when a shell would not read it as one word as it stands.
func shellWord(s string) string {
	if s == "" || strings.ContainsAny(s, " \t\n\"'\\$`") {
		return strconv.Quote(s)
	}
	return s
}
