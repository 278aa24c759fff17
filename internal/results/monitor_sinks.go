package results

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tsbench/tsbench/internal/monitor"
	"github.com/tsbench/tsbench/internal/summary"
)

// monitorStoreTimeout bounds the storing of one sample: a store that hangs
// costs that sample, not the ones after it.
const monitorStoreTimeout = 5 * time.Second

// MonitorSinks are where a monitor's samples go: a JSON-lines file, a
// monitor session in the results store, or both.
type MonitorSinks struct {
	Stderr io.Writer // where a store's first failure is told

	file     *os.File
	fileLine func(int, summary.ResourceSample) error

	st        *Store
	session   MonitorSession
	stored    int
	storeErrs int
}

// OpenFile appends the samples to the file at path, one JSON object a line.
func (m *MonitorSinks) OpenFile(path string) error {
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	m.file, m.fileLine = fh, monitor.JSONLines(fh)
	return nil
}

// Begin stores session's start in st, which then takes every sample; it
// is called before the first sample, so that a store that cannot be
// reached stops the monitor before it samples anything.
func (m *MonitorSinks) Begin(st *Store, session MonitorSession) error {
	m.st, m.session = st, session
	ctx, cancel := context.WithTimeout(context.Background(), monitorStoreTimeout)
	defer cancel()
	return m.st.BeginMonitor(ctx, m.session)
}

// Where names the file and the store the samples go to.
func (m *MonitorSinks) Where() string {
	switch {
	case m.file != nil && m.st != nil:
		return m.file.Name() + " and " + m.st.Location().String()
	case m.st != nil:
		return m.st.Location().String()
	}
	return m.file.Name()
}

// Emit writes a sample to the file (a failure there ends the monitor) and
// to the store (a failure there is counted: the next sample may get
// through).
func (m *MonitorSinks) Emit(seq int, smp summary.ResourceSample) error {
	if m.fileLine != nil {
		if err := m.fileLine(seq, smp); err != nil {
			return err
		}
	}
	if m.st == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), monitorStoreTimeout)
	defer cancel()
	if err := m.st.AppendMonitorSample(ctx, m.session.ID, seq, smp); err != nil {
		if m.storeErrs == 0 {
			fmt.Fprintf(m.Stderr, "tsbench monitor: warning: %v (sampling goes on)\n", err)
		}
		m.storeErrs++
		return nil
	}
	m.stored++
	return nil
}

// Finish ends the session and says where the samples went; samples the
// store missed make it fail.
func (m *MonitorSinks) Finish(stdout io.Writer, n int) error {
	if m.file != nil {
		fmt.Fprintf(stdout, "Wrote %d samples to %s\n", n, m.file.Name())
	}
	if m.st == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), monitorStoreTimeout)
	defer cancel()
	endErr := m.st.EndMonitor(ctx, m.session.ID, time.Now())
	fmt.Fprintf(stdout, "Stored %d samples as monitor session %s in %s\n", m.stored, m.session.ID, m.st.Location())
	switch {
	case m.storeErrs > 0:
		return fmt.Errorf("the results store %s missed %d of %d samples", m.st.Location(), m.storeErrs, n)
	case endErr != nil:
		return endErr
	}
	return nil
}

// Close closes the file and the store.
func (m *MonitorSinks) Close() {
	if m.file != nil {
		m.file.Close()
	}
	if m.st != nil {
		m.st.Close()
	}
}
