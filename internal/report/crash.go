package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/tsbench/internal/summary"
)

// maxLostRanges bounds the lost ranges printed; --json has them all.
const maxLostRanges = 10

// writeCrash tells what --crash did to the server.
func writeCrash(b *strings.Builder, c *summary.Crash) {
	if c == nil {
		return
	}
	if c.Node != "" {
		fmt.Fprintf(b, "Fault on node %s (%s); the other nodes ran on:\n", c.Node, c.Server)
	}
	if c.Command != "" {
		writeCommandFault(b, c)
		return
	}
	if c.PauseS > 0 && c.PID != 0 {
		writePause(b, c)
		return
	}
	if c.PartitionS > 0 {
		writePartition(b, c)
		return
	}
	if c.PID == 0 {
		fmt.Fprintf(b, "Crash: none at %.1f s: %s\n", c.AtS, c.Error)
		return
	}
	fmt.Fprintf(b, "Crash: server %s (pid %d, %s) killed at %.1f s", c.Process, c.PID, c.Found, c.KilledAtS)
	if c.Error != "" {
		fmt.Fprintf(b, "; FAILED: %s\n", oneLine(c.Error, exampleMax))
		return
	}
	fmt.Fprintf(b, "; restarted by `%s`", c.Restart)
	if c.RestartedBy != "" {
		fmt.Fprintf(b, " (%s)", c.RestartedBy)
	}
	fmt.Fprintf(b, " in %.1f s; accepting connections %.1f s after the kill", c.RestartS, c.BackAfterS)
	if c.FailedOverTo != "" {
		fmt.Fprintf(b, ", failed over to %s", c.FailedOverTo)
	}
	if c.NewPID > 0 {
		fmt.Fprintf(b, " as pid %d", c.NewPID)
	}
	b.WriteString("\n")
}

// writeCommandFault is the crash line of a fault the user's command made
// (CRASH_COMMAND).
func writeCommandFault(b *strings.Builder, c *summary.Crash) {
	fmt.Fprintf(b, "Crash: `%s` (CRASH_COMMAND) run at %.1f s", c.Command, c.KilledAtS)
	if c.Error != "" {
		fmt.Fprintf(b, "; FAILED: %s\n", oneLine(c.Error, exampleMax))
		return
	}
	if c.Restart != "" {
		fmt.Fprintf(b, "; restarted by `%s` in %.1f s", c.Restart, c.RestartS)
	}
	fmt.Fprintf(b, "; taking work again %.1f s after the fault\n", c.BackAfterS)
}

// writePause is the crash line of a pause (CRASH_PAUSE).
func writePause(b *strings.Builder, c *summary.Crash) {
	fmt.Fprintf(b, "Pause: server %s (pid %d, %s) stopped at %.1f s for %.1f s (SIGSTOP, then SIGCONT)",
		c.Process, c.PID, c.Found, c.KilledAtS, c.PauseS)
	if c.Error != "" {
		fmt.Fprintf(b, "; FAILED: %s\n", oneLine(c.Error, exampleMax))
		return
	}
	fmt.Fprintf(b, "; taking work again %.1f s after it was stopped\n", c.BackAfterS)
}

// writePartition is the crash line of a partition (CRASH_PARTITION).
func writePartition(b *strings.Builder, c *summary.Crash) {
	fmt.Fprintf(b, "Partition: the run's connections to %s cut off at %.1f s for %.1f s (nothing relayed either way)",
		c.Server, c.KilledAtS, c.PartitionS)
	if c.Error != "" {
		fmt.Fprintf(b, "; FAILED: %s\n", oneLine(c.Error, exampleMax))
		return
	}
	fmt.Fprintf(b, "; taking work again %.1f s after the cut\n", c.BackAfterS)
}

// writeLoss lists where acknowledged points went missing.
func writeLoss(b *strings.Builder, v *summary.Verify) {
	if v == nil || v.Lost == nil {
		return
	}
	l := v.Lost
	fmt.Fprintf(b, "Lost: %s acknowledged points the server does not hold, in %d range(s) (the server's loss):\n",
		GroupThousands(fmt.Sprint(l.Points+l.Unresolved)), len(l.Ranges))
	for i, r := range l.Ranges {
		if i == maxLostRanges {
			fmt.Fprintf(b, "  ... %d more in --json (verify.lost)\n", len(l.Ranges)-i)
			break
		}
		fmt.Fprintf(b, "  %s: rows %d..%d, %s .. %s: %s points\n", r.Device, r.FromRow, r.ToRow-1,
			msTime(r.From), msTime(r.To), GroupThousands(fmt.Sprint(r.Points)))
	}
	if l.Unresolved > 0 {
		fmt.Fprintf(b, "  %s points not placed", GroupThousands(fmt.Sprint(l.Unresolved)))
		if l.Note != "" {
			b.WriteString(": " + oneLine(l.Note, exampleMax))
		}
		b.WriteString("\n")
	}
}

func msTime(ms int64) string { return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z") }
