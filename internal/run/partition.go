package run

import (
	"net"
	"strconv"
	"strings"

	"github.com/tsbench/tsbench/internal/config"
	"github.com/tsbench/tsbench/internal/exit"
	"github.com/tsbench/tsbench/internal/partition"
	"github.com/tsbench/tsbench/internal/targets"
)

// partitionRelay starts the relay a partition cuts (CRASH_PARTITION) and
// points the run's connections (opts) at it; nil without a partition, or
// for a target without a server (crashPlan refuses it). The server's own
// name stays the one its certificate is checked against.
func partitionRelay(cfg *config.Config, d *targets.Driver, opts *targets.Options) (*partition.Relay, error) {
	if cfg.CrashAt <= 0 || cfg.CrashPartition <= 0 {
		return nil, nil
	}
	if strings.Contains(cfg.Host, ",") || cfg.WriteURL != "" || cfg.QueryURL != "" || len(opts.Failover) > 0 {
		return nil, exit.Usagef("CRASH_PARTITION = %v with several servers (HOST, WRITE_URL, QUERY_URL or a failover URL): "+
			"the relay stands before one server and between it and the clients only; cut a cluster's node off from the "+
			"clients and the other nodes with a command (CRASH_COMMAND and CRASH_NODE; scripts/services/thanos-cluster.sh partition N "+
			"does it on this machine)", cfg.CrashPartition)
	}
	host, port := opts.HostPort(d.DefaultPort)
	if port == 0 {
		return nil, nil
	}
	relay, err := partition.Start(net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return nil, err
	}
	if opts.TLS.ServerName == "" {
		opts.TLS.ServerName = host
	}
	opts.Host, opts.Port = relay.Addr()
	return relay, nil
}
