package targets

import (
	"strings"
	"testing"
)

// A left-out target is refused by its name, its DB_SWITCH spellings (with
// or without a suffix) and in any case, naming the build tag and the build
// command; it is listed by LeftOuts, not by Drivers or Names.
func TestLeftOutRefusedNamingItsTag(t *testing.T) {
	RegisterLeftOut(LeftOut{Name: "tagdb", Aliases: []string{"TagDB"}, Tag: "tagdb", Needs: "a C compiler"})
	for _, name := range []string{"tagdb", "TAGDB", "TagDB-2"} {
		_, err := Lookup(name)
		if err == nil || !strings.Contains(err.Error(), `the tagdb target is not in this binary: it is built in only with the build tag "tagdb" (go build -tags tagdb -o tsbench ./cmd/tsbench; it needs a C compiler)`) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, n := range Names() {
		if n == "tagdb" {
			t.Error("a left-out target is among the registered names")
		}
	}
	found := false
	for _, l := range LeftOuts() {
		found = found || l.Name == "tagdb"
	}
	if !found {
		t.Error("LeftOuts lacks tagdb")
	}
}
