package sqlfamily

import (
	"fmt"
	"strings"

	"github.com/tsbench/tsbench/internal/targets"
)

// Choice is the value of the target option key in o, def when unset: one of
// allowed, or an error naming the target, the option, the value and what is
// allowed.
func Choice(target string, o targets.Options, key, def string, allowed ...string) (string, error) {
	v, ok := o.Extra[key]
	if !ok || v == "" {
		return def, nil
	}
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s: target option %s = %q: allowed: %s", target, key, v, strings.Join(allowed, ", "))
}
