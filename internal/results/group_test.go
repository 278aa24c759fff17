package results

import (
	"context"
	"strings"
	"testing"

	"github.com/tsbench/tsbench/internal/summary"
)

// A group's workers' runs are loaded, an earlier merge of it is not, and a
// group with no worker's run is an error naming it.
func TestLoadGroup(t *testing.T) {
	st, _ := openTemp(t)
	ctx := context.Background()
	runs := sampleRuns()
	runs[0].Worker = &summary.Worker{Group: "g", Index: 0, Workers: 2}
	runs[1].Worker = &summary.Worker{Group: "g", Index: 1, Workers: 2}
	runs[2].Merge = &summary.Merge{Group: "g"}
	for _, s := range runs {
		if err := st.Save(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	g, err := st.LoadGroup(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Runs) != 2 {
		t.Errorf("%d runs, want the two workers'", len(g.Runs))
	}
	if _, err := st.LoadGroup(ctx, "none"); err == nil || !strings.Contains(err.Error(), `group "none": no worker's run`) {
		t.Errorf("an empty group: %v", err)
	}
}
