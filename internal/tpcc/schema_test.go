package tpcc

import (
	"strings"
	"testing"
)

// TestTableDDL checks where the keys and indexes go: on PostgreSQL after
// the load (but tpcc_meta's key), in the tablespace when one is named; on
// MySQL with their tables.
func TestTableDDL(t *testing.T) {
	pg, _ := dialectOf("postgres")
	my, _ := dialectOf("mysql")
	for _, c := range []struct {
		name            string
		d               *dialect
		cfg             Config
		inlineKeys      int // CREATE TABLE statements holding a PRIMARY KEY
		later           int // statements run after the load
		laterHas, table string
	}{
		{"postgres", pg, Config{}, 1, 10, "ALTER TABLE tpcc_stock ADD PRIMARY KEY (s_w_id, s_i_id)", "CREATE TABLE tpcc_stock"},
		{"postgres unlogged in a tablespace", pg, Config{Unlogged: true, Tablespace: "fast"}, 1, 10,
			`ALTER TABLE tpcc_stock ADD PRIMARY KEY (s_w_id, s_i_id) USING INDEX TABLESPACE "fast"`, "CREATE UNLOGGED TABLE tpcc_stock"},
		{"mysql", my, Config{}, 9, 0, "", "CREATE TABLE tpcc_stock"},
	} {
		t.Run(c.name, func(t *testing.T) {
			creates, later := tableDDL(c.d, &c.cfg)
			keys := 0
			for _, s := range creates {
				if strings.Contains(s, "PRIMARY KEY") {
					keys++
				}
				if strings.HasPrefix(s, "CREATE INDEX") != (c.d.name == "mysql" && strings.Contains(s, "INDEX")) {
					t.Errorf("%s", s)
				}
				if c.cfg.Tablespace != "" && !strings.HasSuffix(s, `TABLESPACE "fast"`) {
					t.Errorf("not in the tablespace: %s", s)
				}
			}
			if keys != c.inlineKeys || len(later) != c.later {
				t.Errorf("%d tables with their key, %d statements after the load; want %d, %d:\n%s\n%s", keys, len(later),
					c.inlineKeys, c.later, strings.Join(creates, "\n"), strings.Join(later, "\n"))
			}
			if c.laterHas != "" && !strings.Contains(strings.Join(later, "\n"), c.laterHas) {
				t.Errorf("after the load: %q missing from\n%s", c.laterHas, strings.Join(later, "\n"))
			}
			found := false
			for _, s := range creates {
				found = found || strings.HasPrefix(s, c.table+" (")
			}
			if !found {
				t.Errorf("no %s", c.table)
			}
		})
	}
}
