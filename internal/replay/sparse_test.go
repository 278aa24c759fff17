package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/badinput"
	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/dataset"
	"github.com/tsbench/tsbench/internal/targets"
)

// Sparse data is refused before the run on a target without
// Capabilities.Sparse (exit 2, the count named), taken by one with it;
// dense data is taken by both.
func TestCheckSparse(t *testing.T) {
	dir := t.TempDir()
	open := func(name, content string) *dataset.Dataset {
		src := filepath.Join(dir, name)
		if err := os.WriteFile(src, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name+".ds")
		if _, err := dataset.Import(src, out, dataset.ImportOptions{TimeUnit: "ms"}); err != nil {
			t.Fatal(err)
		}
		ds, err := dataset.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ds.Close() })
		return ds
	}
	sparse := open("sparse.csv", "time,device,a,b\n1000,d,1,\n2000,d,,null\n3000,d,3,4\n")
	dense := open("dense.csv", "time,device,a,b\n1000,d,1,2\n")
	without := &targets.Driver{Name: "nosparse"}
	with := &targets.Driver{Name: "withsparse", Caps: targets.Capabilities{Sparse: true}}
	cfg := config.Default()
	cfg.Data = "sparse.csv"

	err := CheckSparse(cfg, without, sparse)
	if !badinput.Is(err) ||
		!strings.Contains(err.Error(), `DATA = "sparse.csv" is sparse data (3 of its 6 values missing: cells without a value), which the nosparse target does not write yet; targets that take sparse data: `) {
		t.Fatalf("%v, want exit 2 naming the target and the count", err)
	}
	for _, c := range []struct {
		d  *targets.Driver
		ds *dataset.Dataset
	}{{with, sparse}, {without, dense}, {with, dense}} {
		if err := CheckSparse(cfg, c.d, c.ds); err != nil {
			t.Errorf("%s on %s: %v", c.ds.Source, c.d.Name, err)
		}
	}
}
