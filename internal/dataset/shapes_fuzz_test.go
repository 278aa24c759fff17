package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzCSVShapes reads any text as a CSV file: its separator, header rows,
// markers, device keys and times found or refused as bad input, never a
// panic nor another failure.
func FuzzCSVShapes(f *testing.F) {
	for _, seed := range []string{
		"timestamps_UTC;vf;te_in;is shadowed\n2020-01-01T00:00:00;7,35e-07;21,5;0\n2020-01-01T00:01:00;7,40e-07;21,6;1\n",
		"time,GHI,T_air\n[UTC],[W/m2],degC\nTS,Avg,Smp\n2020-01-01 00:00:00+00:00,0,3.5\n2020-01-01 01:00:00+00:00,12.5,3.25\n",
		"date,v\n02/01/2019 00:00:00,1\n13/01/2019 00:00:00,2\n",
		",\"A : b\",\"C : d\"\n2000-01,--,NM\n2000-02,--,1.5\n",
		"date_UTC;time_UTC;T\n31.12.2020;23:59;1,5\n",
		"date time value\n2020-01-01 00:00 1.5  \n",
		"date,status,v\n2020-01-01,ok,1\n",
		"a|b\n1|2|3\n",
	} {
		f.Add([]byte(seed), "")
	}
	f.Add([]byte("date,v\n2020-01-01,-999\n"), "+-999")
	f.Fuzz(func(t *testing.T, content []byte, missing string) {
		src := filepath.Join(t.TempDir(), "x.csv")
		if err := os.WriteFile(src, content, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Inspect(src, ImportOptions{Missing: missing}); err != nil && !IsInputError(err) {
			t.Fatalf("%q: %v, want bad input or none", content, err)
		}
	})
}
