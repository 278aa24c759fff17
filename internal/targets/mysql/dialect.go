package mysql

import (
	"encoding/json"
	"strings"

	"github.com/tsbench/tsbench/internal/targets/sqlfamily"
)

// Dialect is MySQL's and MariaDB's SQL: series as literal lists, DIV for
// Q7's buckets (with literal bounds, which GROUP BY then sees as one
// expression), tags read from JSON text with JSON_VALUE (tagPath), and ON DUPLICATE
// KEY UPDATE to replace a rewritten point.
var Dialect = sqlfamily.Dialect{
	Name:        "mysql",
	Placeholder: sqlfamily.Question,
	IDs:         sqlfamily.IDList,
	Table:       "points",
	ZeroTime:    "0",
	Count:       "COUNT(*)",
	Sum:         "SUM(v)",
	Bucket:      sqlfamily.IntDiv("DIV"),
	Latest:      sqlfamily.LatestJoin,
	Tag: func(b *sqlfamily.Builder, key string) string {
		return "JSON_VALUE(d.tags, " + b.Param(tagPath(key)) + ")"
	},
	Real:    "DOUBLE",
	Insert:  "INSERT INTO points (series, t, v, s) VALUES ",
	Row:     []string{"", "", "", ""},
	Upsert:  " ON DUPLICATE KEY UPDATE v = VALUES(v), s = VALUES(s)",
	Replace: "REPLACE INTO",
}

// tagPath is the JSON path of the tag key: $."key", the key a JSON string
// (quotes and backslashes escaped), so that a key holding a dot, a space or
// a bracket names one member instead of a path of several.
func tagPath(key string) string {
	var b strings.Builder
	b.WriteString("$.")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(key) //nolint:errcheck // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}
