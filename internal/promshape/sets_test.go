package promshape

import (
	"testing"

	"github.com/tsbench/tsbench/internal/remotewrite"
)

func labelled(v float64, pairs ...string) Sample {
	var ls []remotewrite.Label
	for i := 0; i+1 < len(pairs); i += 2 {
		ls = append(ls, remotewrite.Label{Name: pairs[i], Value: pairs[i+1]})
	}
	return Sample{Labels: ls, Value: v}
}

// The set operators by hand: matching on every label but __name__, or on
// the instance alone.
func TestSetOperatorsByHand(t *testing.T) {
	load := Vector{
		labelled(7.5, "__name__", "node_load1", "instance", "a", "job", "n"),
		labelled(6.5, "__name__", "node_load1", "instance", "b", "job", "n"),
	}
	mem := Vector{
		labelled(0.05, "instance", "b", "job", "n"),
		labelled(0.07, "instance", "c", "job", "n"),
	}
	other := Vector{labelled(1, "instance", "b", "job", "other")}
	for _, c := range []struct {
		name string
		got  Vector
		want string
	}{
		{"and", set(setAnd, load, mem, nil), `[node_load1{instance="b",job="n"}=6.5]`},
		{"unless", set(setUnless, load, mem, nil), `[node_load1{instance="a",job="n"}=7.5]`},
		{"or", set(setOr, load, mem, nil), `[node_load1{instance="a",job="n"}=7.5 node_load1{instance="b",job="n"}=6.5 {instance="c",job="n"}=0.07]`},
		{"and, other job", set(setAnd, load, other, nil), `[]`},
		{"and on (instance), other job", set(setAnd, load, other, []string{"instance"}), `[node_load1{instance="b",job="n"}=6.5]`},
		{"unless on (instance)", set(setUnless, mem, load, []string{"instance"}), `[{instance="c",job="n"}=0.07]`},
	} {
		if got := vectorString(Sorted(c.got)); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// topk's sum is the same whichever of equal values an engine keeps.
func TestTopkSumByHand(t *testing.T) {
	v := Vector{
		labelled(5, "instance", "a", "job", "x"), labelled(9, "instance", "b", "job", "x"),
		labelled(5, "instance", "c", "job", "x"), labelled(1, "instance", "d", "job", "x"),
		labelled(2, "instance", "e", "job", "y"),
	}
	if got, want := vectorString(Sorted(topkSum(2, []string{"job"}, v))), `[{job="x"}=14 {job="y"}=2]`; got != want {
		t.Errorf("topk by job of 2: %s, want %s", got, want)
	}
}

func TestAbsentByHand(t *testing.T) {
	s := sel("up", "job", "node", "env", "prod")
	if got, want := vectorString(absent(s, nil)), `[{env="prod",job="node"}=1]`; got != want {
		t.Errorf("absent of nothing: %s, want %s", got, want)
	}
	if got := absent(s, Vector{labelled(1, "job", "node")}); len(got) != 0 {
		t.Errorf("absent of a series: %s", vectorString(got))
	}
}
