package config

import (
	"errors"
	"fmt"
	"strings"
)

// Set assigns one key from the command line (--set KEY=VALUE and the CLI's
// own flags). key may be a canonical name, alias or YAML name in any case,
// or target.NAME for a target option. Unlike the file readers, Set refuses
// an unknown key: a typo on the command line should stop the run, not
// scroll past as a warning.
func Set(c *Config, key, value string) error {
	_, err := SetWarn(c, key, value)
	return err
}

// SetWarn is Set that also returns the warning the value deserves, or "":
// an ignored IoT-benchmark key, or a value taken with a guess
// (OPERATION_PROPORTION with missing fields). The CLI prints it, and
// --strict refuses it.
func SetWarn(c *Config, key, value string) (string, error) {
	msg, err := assign(c, key, value, "flag")
	var u *unknownKeyError
	if errors.As(err, &u) {
		return "", &Error{Key: key, Value: value, Source: "flag", Reason: u.Error()}
	}
	return msg, err
}

// Derive sets key to value for a reason the run itself gives (a replayed
// file, a target's limits); Origin then gives that reason.
func Derive(c *Config, key, value, why string) error {
	_, err := assign(c, key, value, why)
	if err == nil {
		c.markDerived(key)
	}
	return err
}

// DeriveOwned is Derive for a key whose value the caller owns (a TSBS run's
// LOOP, from TSBS_QUERIES): a different value set by a flag or a file would
// be replaced without a word, so it is refused, naming where it was set and
// why the run sets another. The same value, or one an earlier derivation
// set, is taken.
func DeriveOwned(c *Config, key, value, why string) error {
	k := lookup(key)
	from := c.Origin(key)
	if k == nil || k.get == nil || from == "" || c.derived[k.Name] {
		return Derive(c, key, value, why)
	}
	given := fmt.Sprint(k.get(c))
	scratch := *c
	if err := k.set(&scratch, value); err != nil {
		return describe(err, k, value, why)
	}
	if derived := fmt.Sprint(k.get(&scratch)); derived != given {
		return &Error{Key: k.Name, Value: given, Source: from,
			Reason: fmt.Sprintf("%s sets it to %s here: set %s instead, or leave %s out", why, derived, why, k.Name)}
	}
	return Derive(c, key, value, why)
}

// markDerived records that key's value came from another key (Derive).
func (c *Config) markDerived(key string) {
	if k := lookup(key); k != nil {
		if c.derived == nil {
			c.derived = map[string]bool{}
		}
		c.derived[k.Name] = true
	}
}

// SetArg is Set for one "KEY=VALUE" argument of --set.
func SetArg(c *Config, arg string) error {
	_, err := SetArgWarn(c, arg)
	return err
}

// SetArgWarn is SetWarn for one "KEY=VALUE" argument of --set.
func SetArgWarn(c *Config, arg string) (string, error) {
	k, v, ok := strings.Cut(arg, "=")
	if !ok || strings.TrimSpace(k) == "" {
		return "", &Error{Source: "flag", Reason: fmt.Sprintf("--set %q: want KEY=VALUE", arg)}
	}
	return SetWarn(c, k, v)
}

// targetOptionPrefixes introduce a target option in a key name.
var targetOptionPrefixes = []string{"target.", "target_options."}

func targetOption(name string) (string, bool) {
	n := strings.TrimSpace(name)
	for _, p := range targetOptionPrefixes {
		if len(n) > len(p) && strings.EqualFold(n[:len(p)], p) {
			return n[len(p):], true
		}
	}
	return "", false
}

// Messages carry no "warning:" label: the CLI adds it. Unknown keys read
// "unknown key K (did you mean X?)", ignored keys "K accepted, ignored: why".

// assign sets one key from text; every reader ends here. source says where
// the text came from (file:line or "flag"). It returns a message for the
// user when the key is accepted but not acted on, and *unknownKeyError for
// a key the table does not know.
func assign(c *Config, name, value, source string) (string, error) {
	if opt, ok := targetOption(name); ok {
		setTargetOption(c, opt, strings.TrimSpace(value))
		c.setOrigin("target."+opt, source)
		return "", nil
	}
	k := lookup(name)
	if k == nil {
		return "", &unknownKeyError{name: strings.TrimSpace(name), suggestion: Suggest(name)}
	}
	if k.Ignored != "" {
		return ignore(c, k, normalize(name), value, source), nil
	}
	if err := k.set(c, value); err != nil {
		return "", describe(err, k, value, source)
	}
	c.setOrigin(k.Name, source)
	if k.warn != nil {
		if w := k.warn(value); w != "" {
			return fmt.Sprintf("%s: %s = %q: %s", source, k.Name, redact(k.Name, strings.TrimSpace(value)), w), nil
		}
	}
	return "", nil
}

// ignore keeps the raw value of an accepted-but-unused key in Extra and
// says so.
func ignore(c *Config, k *Key, name, value, source string) string {
	if c.Extra == nil {
		c.Extra = map[string]string{}
	}
	value = strings.TrimSpace(value)
	c.Extra[name] = value
	c.setOrigin(name, source)
	if k.warn != nil {
		if w := k.warn(value); w != "" {
			return fmt.Sprintf("%s: %s = %q: %s", source, name, redact(name, value), w)
		}
	}
	return fmt.Sprintf("%s: %s accepted, ignored: %s", source, name, k.Ignored)
}

// describe completes a setter's error with the key, the value (redacted
// for secrets) and where it came from.
func describe(err error, k *Key, value, source string) *Error {
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Reason: err.Error()}
	}
	out := *e
	out.Key, out.Value, out.Source = k.Name, redact(k.Name, strings.TrimSpace(value)), source
	if k.Name == "TARGET_OPTIONS" {
		out.Value = redactPairs(out.Value)
	}
	if out.Allowed == "" {
		out.Allowed = k.Allowed
	}
	return &out
}

func (c *Config) setOrigin(key, source string) {
	if c.origin == nil {
		c.origin = map[string]string{}
	}
	c.origin[key] = source
}

// Origin says where a key was last set: file:line, "flag", or "" when it
// still has its default value.
func (c *Config) Origin(key string) string {
	if k := lookup(key); k != nil && !k.family() {
		return c.origin[k.Name]
	}
	return c.origin[normalize(key)]
}

// canonical is the name under which repeated settings of one key are
// detected: CLIENT_NUMBER and DATA_CLIENT_NUMBER are the same key.
func canonical(name string) string {
	if opt, ok := targetOption(name); ok {
		return "target." + opt
	}
	if k := lookup(name); k != nil && !k.family() {
		return k.Name
	}
	return normalize(name)
}

// setting identifies what a name sets, for settings given twice: keys of
// one setting (DURATION and TEST_MAX_TIME) are one.
func setting(name string) string {
	if k := lookup(name); k != nil && !k.family() {
		return k.setting()
	}
	return canonical(name)
}

// twoVocabularies reports names of one setting from tsbench's and
// IoT-benchmark's vocabularies (clients and client_number), or two keys of
// one setting (duration and test_max_time). IoT-benchmark's own pairs
// (CLIENT_NUMBER and DATA_CLIENT_NUMBER) are not: its files may carry both.
func twoVocabularies(a, b string) bool {
	ka, kb := lookup(a), lookup(b)
	na, nb := normalize(a), normalize(b)
	if ka == nil || kb == nil || na == nb {
		return false
	}
	return ka != kb || isFlagName(ka, na) || isFlagName(kb, nb)
}

func isFlagName(k *Key, normalized string) bool {
	return k.Flag != "" && normalize(k.Flag) == normalized
}

// fileLoader collects what one file's keys produce: messages for the user,
// errors (all of them, so that one run shows every bad line), and where
// each setting was first seen, and under which name, to flag settings
// given twice.
type fileLoader struct {
	c        *Config
	warnings []string
	errs     []error
	seen     map[string]seenAt
}

// seenAt is where a file first gave a setting, and the name it used.
type seenAt struct{ name, source string }

func newFileLoader(c *Config) *fileLoader {
	return &fileLoader{c: c, seen: map[string]seenAt{}}
}

func (l *fileLoader) assign(name, value, source string) {
	id := setting(name)
	if first, dup := l.seen[id]; dup {
		if twoVocabularies(first.name, name) {
			// Which of the two was meant is anyone's guess: the order of
			// lines should not decide it.
			l.errs = append(l.errs, &Error{Source: source, Reason: fmt.Sprintf(
				"%s and %s (at %s) are two names of one setting (%s): keep one of them",
				strings.TrimSpace(name), strings.TrimSpace(first.name), first.source, id)})
			return
		}
		l.warnings = append(l.warnings, fmt.Sprintf("%s: %s set again (first at %s); the last value counts", source, canonical(name), first.source))
	} else {
		l.seen[id] = seenAt{name: name, source: source}
	}
	msg, err := assign(l.c, name, value, source)
	var u *unknownKeyError
	switch {
	case errors.As(err, &u):
		// An unknown key would leave its setting at the default without a
		// word: a typo, or a key of another tool. IoT-benchmark's own keys
		// that tsbench does not use are in the table (ignored), so they
		// only warn.
		l.errs = append(l.errs, &Error{Source: source, Reason: u.Error()})
	case err != nil:
		l.errs = append(l.errs, err)
	case msg != "":
		l.warnings = append(l.warnings, msg)
	}
}

// result returns a single error as itself, so that callers may type-assert
// it, and several joined.
func (l *fileLoader) result() ([]string, error) {
	if len(l.errs) == 1 {
		return l.warnings, l.errs[0]
	}
	return l.warnings, errors.Join(l.errs...)
}

// FromArgs builds a resolved configuration from the defaults and KEY=VALUE
// arguments, as --set would apply them. Tests and tools use it to build the
// same configuration the command line would.
func FromArgs(args ...string) (*Config, error) {
	c := Default()
	for _, a := range args {
		if err := SetArg(c, a); err != nil {
			return nil, err
		}
	}
	if err := Resolve(c); err != nil {
		return nil, err
	}
	return c, nil
}
