package jsonenc

import (
	"github.com/tsbench/tsbench/internal/targets"
	"github.com/tsbench/tsbench/internal/ts"
)

// Bound is what a metric-and-tags target (KairosDB, OpenTSDB) keeps of one
// client's connection beside the connection: targets.Bound (the lock that
// serialises its use, which guards the target's own server names too, and
// the schema), that schema's Series, and the body of the last batch,
// reused. Targets embed it.
type Bound struct {
	targets.Bound
	Series Series
	body   []byte
}

// Render lays out a batch's points as the JSON body a target posts, given
// the metric name of each of its sensors and the tags of its device.
type Render func(dst []byte, metrics []string, tags string, b *ts.Batch) ([]byte, error)

// Post renders b (render) and hands the body to post, holding Mu: the body
// is reused by the next batch. A batch without a point posts nothing. A
// failure to find b's device or to render it is an error in the target's
// name ("write batch"); post's are post's own.
func (x *Bound) Post(b *ts.Batch, render Render, post func(body []byte) error) error {
	_, pos, err := x.Binding.LockDevice(&x.Mu, b.Device)
	if err != nil {
		return x.Binding.Errorf("write batch: %w", err)
	}
	defer x.Mu.Unlock()
	if b.Points() == 0 {
		return nil // every cell empty: nothing to post
	}
	body, err := render(x.body[:0], x.Series.Metrics, x.Series.Tags[pos], b)
	if err != nil {
		return x.Binding.Errorf("write batch of %s: %w", b.Device.Name, err)
	}
	x.body = body
	return post(body)
}
