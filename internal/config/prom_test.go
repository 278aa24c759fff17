package config

import (
	"strings"
	"testing"
	"time"
)

// The prometheus workload's keys are checked against each other, each
// refusal naming its key and what is allowed.
func TestCheckProm(t *testing.T) {
	tests := []struct {
		name    string
		modify  func(c *Config)
		key     string // blamed key; "" for success
		allowed string // part of what is allowed
	}{
		{"defaults", func(*Config) {}, "", ""},
		{"more clients than devices is fine", func(c *Config) { c.Clients = 50 }, "", ""},
		{"more clients than targets", func(c *Config) { c.Clients = 101 }, "CLIENT_NUMBER", "[1, 100] (PROM_TARGETS)"},
		{"interval below a millisecond", func(c *Config) { c.PromScrapeInterval = time.Microsecond }, "PROM_SCRAPE_INTERVAL", "whole number of milliseconds"},
		{"zero interval", func(c *Config) { c.PromScrapeInterval = 0 }, "PROM_SCRAPE_INTERVAL", "positive"},
		{"49 minutes of scrapes", func(c *Config) { c.PromScrapes = 294 }, "", ""},
		{"more than 49 minutes", func(c *Config) { c.PromScrapes = 295 }, "PROM_SCRAPES", "[1, 294]"},
		{"a share replacing no target", func(c *Config) { c.PromChurnShare = 0.004 }, "PROM_CHURN_SHARE", "at least 0.005"},
		{"no churn", func(c *Config) { c.PromChurnShare = 0 }, "", ""},
		{"spikes", func(c *Config) { c.PromSpikeEvery, c.PromSpikeShare = 6, 0.5 }, "", ""},
		{"spikes without steady churn", func(c *Config) { c.PromChurnShare, c.PromSpikeEvery, c.PromSpikeShare = 0, 6, 0.5 }, "", ""},
		{"a spike no bigger than the churn", func(c *Config) { c.PromSpikeEvery, c.PromSpikeShare = 6, 0.05 },
			"PROM_SPIKE_SHARE", "more of PROM_TARGETS 100 than PROM_CHURN_SHARE 0.05"},
		{"a spike share without spikes", func(c *Config) { c.PromSpikeShare = 0.5 }, "PROM_SPIKE_SHARE", "0 unless PROM_SPIKE_EVERY"},
		{"workers", func(c *Config) { c.Workers = 2; c.RunGroup = "g" }, "", ""},
		{"workers starting at an instant", func(c *Config) {
			c.Workers, c.RunGroup, c.StartAt = 2, "g", time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
		}, "START_AT", "unset with WORKLOAD = prometheus and WORKERS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Default()
			c.Workload = WorkloadPrometheus
			tt.modify(c)
			err := Resolve(c)
			if tt.key == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			e := asError(t, err)
			if e.Key != tt.key || !strings.Contains(e.Allowed, tt.allowed) {
				t.Errorf("got %s: %q, want %s allowing %q", e.Key, e.Allowed, tt.key, tt.allowed)
			}
		})
	}
	// Another workload ignores the PROM_* relations (the CLI refuses the
	// keys themselves).
	c := Default()
	c.PromScrapes = 100_000
	if err := Resolve(c); err != nil {
		t.Errorf("a time series run: %v", err)
	}
}

// Bad single values are refused by the keys' own parsers.
func TestPromKeyValues(t *testing.T) {
	for key, v := range map[string]string{"PROM_TARGETS": "0", "PROM_CHURN_SHARE": "1.5", "PROM_CHURN_PERIOD": "0",
		"PROM_SCRAPE_INTERVAL": "soon", "PROM_SCRAPES": "-1"} {
		k := lookup(key)
		if k == nil {
			t.Fatalf("no key %s", key)
		}
		if err := k.set(Default(), v); err == nil {
			t.Errorf("%s = %s accepted", key, v)
		}
	}
}
