package results

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/tsbench/tsbench/internal/datadir"
)

// Env names the environment variable that gives the default results store
// (a path or a postgres:// or mysql:// URL; a password is better kept here
// than on a command line).
const Env = "TSBENCH_RESULTS"

// Spec resolves the store a --results flag asks for: the flag, else
// $TSBENCH_RESULTS, else def, the SQLite file <dataDir>/results.db
// (dataDir "" is the default data directory). off reports that storing is
// turned off (off, none, false, no).
func Spec(flag, dataDir string) (spec, def string, off bool) {
	spec = flag
	if spec == "" {
		spec = os.Getenv(Env)
	}
	switch strings.ToLower(strings.TrimSpace(spec)) {
	case "off", "none", "false", "no":
		return "", "", true
	}
	return spec, filepath.Join(datadir.Or(dataDir), "results.db"), false
}

// Resolve is the Location of Spec; off as there.
func Resolve(flag, dataDir string) (loc Location, off bool, err error) {
	spec, def, off := Spec(flag, dataDir)
	if off {
		return Location{}, true, nil
	}
	loc, err = ParseLocation(spec, def)
	return loc, false, err
}

// FlagText repeats a --results given on the command line (flag; "" when
// none was), without its password, for a suggested command.
func FlagText(flag string, loc Location) string {
	if flag == "" {
		return ""
	}
	return " --results '" + loc.String() + "'"
}
