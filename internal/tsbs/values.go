package tsbs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/gen"
	"github.com/tsbench/tsbench/internal/ts"
)

// The values a TSBS run writes (TSBS_VALUES).
const (
	// ValuesAuto writes TSBS's own values where tsbench reproduces them
	// for a run (cpu-only), tsbench's elsewhere.
	ValuesAuto = "auto"
	// ValuesTSBS writes TSBS's own values: the tags and values
	// tsbs_generate_data makes with TSBS_SEED (cpu-only).
	ValuesTSBS = "tsbs"
	// ValuesTSBench writes tsbench's own values, each computed from its
	// index, at any scale.
	ValuesTSBench = "tsbench"
)

// ValuesChoices are TSBS_VALUES's allowed values.
var ValuesChoices = []string{ValuesAuto, ValuesTSBS, ValuesTSBench}

// MaxValuesBytes bounds the memory TSBS's own values take in a run: they
// cannot be computed from their index (TSBS draws them from one sequence),
// so a run keeps them all, one byte each.
const MaxValuesBytes = 2 << 30

// OwnValues reports whether c's run writes TSBS's own values, or why
// TSBS_VALUES cannot be kept.
func OwnValues(c *config.Config) (bool, error) {
	if !Active(c) || c.TSBSValues == ValuesTSBench {
		return false, nil
	}
	if !slices.Contains(ValuesChoices, c.TSBSValues) {
		return false, &Error{Key: "TSBS_VALUES", Value: c.TSBSValues, Allowed: strings.Join(ValuesChoices, ", ")}
	}
	if c.TSBSUseCase != "cpu-only" {
		if c.TSBSValues == ValuesTSBS {
			return false, &Error{Key: "TSBS_VALUES", Value: c.TSBSValues, Allowed: ValuesAuto + ", " + ValuesTSBench,
				Reason: "a run writes TSBS's own values for cpu-only only: devops's are not reproduced, and iot's rows " +
					"(dropped, late, nameless) are not one per truck and interval; tsbench generate --format writes iot's exactly"}
		}
		return false, nil
	}
	span, err := SpanOf(c)
	if err != nil {
		return false, err
	}
	if size := gen.TableBytes(c.TSBSScale, len(CPUFields), span.Rows); size > MaxValuesBytes {
		return false, &Error{Key: "TSBS_VALUES", Value: c.TSBSValues, Allowed: ValuesTSBench,
			Reason: fmt.Sprintf("TSBS's own values are kept in memory, one byte each: %d hosts x %d rows x %d fields = %s, over %s; "+
				"set TSBS_VALUES=tsbench (tsbench's values, computed from their index) or a shorter TSBS_START..TSBS_END",
				c.TSBSScale, span.Rows, len(CPUFields), megabytes(size), megabytes(MaxValuesBytes))}
	}
	return true, nil
}

func megabytes(n int64) string { return strconv.FormatInt(n>>20, 10) + " MiB" }

// ExactConfigOf is TSBS's generator configuration of c's TSBS keys.
func ExactConfigOf(c *config.Config) (ExactConfig, error) {
	span, err := SpanOf(c)
	if err != nil {
		return ExactConfig{}, err
	}
	end := span.Start.Add(time.Duration(span.Rows) * span.Step)
	return ExactConfig{UseCase: c.TSBSUseCase, Seed: c.TSBSSeed, Scale: c.TSBSScale,
		Start: span.Start, End: end, Interval: span.Step}, nil
}

// ownData is a run's TSBS values and host tags.
type ownData struct {
	table *gen.Table
	tags  [][]ts.Tag
}

// ownCache keeps the last TSBS data made: the phases of a run, and the
// schema's every device, ask for the same.
var ownCache struct {
	sync.Mutex
	key  ExactConfig
	data *ownData
}

// own is c's TSBS data, or nil when its run writes tsbench's values. Its
// errors cannot come in a run: Apply refused (OwnValues, SpanOf) every
// configuration TSBS's generator would refuse (ExactConfig.validate).
func own(c *config.Config) *ownData {
	if ok, err := OwnValues(c); !ok || err != nil {
		return nil
	}
	ec, err := ExactConfigOf(c)
	if err != nil {
		return nil
	}
	ownCache.Lock()
	defer ownCache.Unlock()
	if ownCache.data == nil || ownCache.key != ec {
		d, err := makeOwnData(ec)
		if err != nil {
			return nil
		}
		ownCache.key, ownCache.data = ec, d
	}
	return ownCache.data
}

// makeOwnData runs TSBS's cpu-only generator once: rows go host by host
// within each epoch, so row n is host n % scale at epoch n / scale, and the
// first epoch's rows carry every host's tags.
func makeOwnData(ec ExactConfig) (*ownData, error) {
	x, err := NewExact(ec)
	if err != nil {
		return nil, err
	}
	rows := int64(ec.End.Sub(ec.Start) / ec.Interval)
	d := &ownData{table: gen.NewTable(ec.Scale, len(CPUFields), rows)}
	for n := int64(0); ; n++ {
		r, ok := x.Next()
		if !ok {
			break
		}
		host, k := int(n%int64(ec.Scale)), n/int64(ec.Scale)
		if k == 0 {
			tags := make([]ts.Tag, len(r.Tags))
			for i, p := range r.Tags {
				tags[i] = ts.Tag{Key: p.Key, Value: p.Value.Text()}
			}
			d.tags = append(d.tags, tags)
		}
		for i, p := range r.Fields {
			d.table.Set(host, i, k, uint8(p.Value.Int))
		}
	}
	return d, nil
}

// Table is TSBS's own values for c's run (gen.Options.Table), nil when it
// writes tsbench's.
func Table(c *config.Config) *gen.Table {
	if d := own(c); d != nil {
		return d.table
	}
	return nil
}

// ownTags are host index's tags as TSBS draws them, false when c's run
// does not write TSBS's own values.
func ownTags(c *config.Config, index int) ([]ts.Tag, bool) {
	d := own(c)
	if d == nil || index < 0 || index >= len(d.tags) {
		return nil, false
	}
	return d.tags[index], true
}
