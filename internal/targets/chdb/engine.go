package chdb

/*
#cgo LDFLAGS: -ldl
#include <stdlib.h>
#include "engine.h"
*/
import "C"

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unsafe"

	"github.com/tsbench/tsbench/internal/targets/clickhouse"
)

// engine is the process's one ClickHouse engine: chdb keeps all its
// connections on one storage path ("all connections in a process must
// share one storage path"), so the first Open fixes it and a later one
// elsewhere is refused.
var engine struct {
	sync.Mutex
	loaded   bool
	path     string
	database unsafe.Pointer
}

// errString takes a C error string.
func errString(err *C.char) string {
	defer C.free(unsafe.Pointer(err))
	return C.GoString(err)
}

// openEngine loads the library (once) and opens the engine's storage at
// path (once), returning the database.
func openEngine(lib library, path string) (unsafe.Pointer, error) {
	engine.Lock()
	defer engine.Unlock()
	if engine.database != nil {
		if engine.path != path {
			return nil, fmt.Errorf("chdb: the engine of this process keeps its data in %s; it cannot open %s beside it "+
				"(chdb has one storage path a process)", engine.path, path)
		}
		return engine.database, nil
	}
	if !engine.loaded {
		py, so := C.CString(lib.python), C.CString(lib.path)
		defer C.free(unsafe.Pointer(py))
		defer C.free(unsafe.Pointer(so))
		var cerr *C.char
		if C.tsb_load(py, so, &cerr) != 0 {
			return nil, fmt.Errorf("chdb: load %s (with %s): %s", lib.path, lib.python, errString(cerr))
		}
		engine.loaded = true
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var cerr *C.char
	db := C.tsb_database(cpath, &cerr)
	if db == nil {
		return nil, fmt.Errorf("chdb: %s: %s", path, errString(cerr))
	}
	engine.database, engine.path = db, path
	return db, nil
}

// transport is one connection (a session) of the engine: the clickhouse
// target's statements, answered as ClickHouse formats them.
type transport struct {
	mu   sync.Mutex // one statement at a time on a connection
	conn unsafe.Pointer
	path string
}

var _ clickhouse.Transport = (*transport)(nil)

func connect(database unsafe.Pointer, path string) (*transport, error) {
	var cerr *C.char
	conn := C.tsb_connect(database, &cerr)
	if conn == nil {
		return nil, fmt.Errorf("chdb: %s: %s", path, errString(cerr))
	}
	return &transport{conn: conn, path: path}, nil
}

// Where names the engine in errors.
func (tr *transport) Where() string { return "chdb " + tr.path }

// run runs sql and returns its answer's text columns (engine.h).
func (tr *transport) run(sql string, escaped bool) ([]byte, error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.conn == nil {
		return nil, errors.New("chdb: the connection is closed")
	}
	// ADBC takes the text as a C string, which ends at a NUL byte. A NUL
	// stands in a string literal, a quoted name or TabSeparated data (the
	// only places one is valid), where ClickHouse reads \0 as one, so it
	// is written so.
	csql := C.CString(strings.ReplaceAll(sql, "\x00", `\0`))
	defer C.free(unsafe.Pointer(csql))
	var out, cerr *C.char
	var n C.size_t
	esc := C.int(0)
	if escaped {
		esc = 1
	}
	if C.tsb_exec(tr.conn, csql, esc, &out, &n, &cerr) != 0 {
		return nil, fmt.Errorf("chdb: %s: %s", tr.path, errString(cerr))
	}
	if out == nil {
		return nil, nil
	}
	defer C.free(unsafe.Pointer(out))
	return C.GoBytes(unsafe.Pointer(out), C.int(n)), nil
}

// Exec runs a statement of the clickhouse target. An INSERT's data
// follows its FORMAT clause in the text, as in ClickHouse's own client. A
// query's rows come back as Arrow columns, so ClickHouse formats them
// itself: the query becomes the subquery of formatRow('TabSeparated', *),
// whose one text column holds each row as the HTTP interface would send
// it, line end included.
func (tr *transport) Exec(_ context.Context, query string, body io.Reader) ([]byte, error) {
	if body != nil {
		data, err := io.ReadAll(body)
		if err != nil {
			return nil, err
		}
		return tr.run(query+"\n"+string(data), false)
	}
	if !returnsRows(query) {
		return tr.run(query, false)
	}
	q := strings.TrimSpace(query)
	if base, ok := cutSuffixFold(q, " FORMAT TabSeparated"); ok {
		q = base
	}
	return tr.run("SELECT formatRow('TabSeparated', *) FROM ("+q+")", false)
}

// Own runs a user's statement in database db: its columns' names and types
// (DESCRIBE of it), then its rows (formatRow), as TabSeparatedWithNamesAndTypes.
func (tr *transport) Own(_ context.Context, db, text string) (io.ReadCloser, error) {
	if _, err := tr.run("USE "+quoteIdent(db), false); err != nil {
		return nil, fmt.Errorf("%w (own query)", err)
	}
	text = strings.TrimRight(strings.TrimSpace(text), ";")
	desc, err := tr.run("DESCRIBE TABLE ("+text+")", true)
	if err != nil {
		return nil, fmt.Errorf("%w (own query)", err)
	}
	var names, types []string
	for _, line := range strings.Split(strings.TrimSuffix(string(desc), "\n"), "\n") {
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 {
			return nil, fmt.Errorf("chdb: %s: own query: unexpected DESCRIBE line %q", tr.path, line)
		}
		names, types = append(names, f[0]), append(types, f[1])
	}
	rows, err := tr.run("SELECT formatRow('TabSeparated', *) FROM ("+text+")", false)
	if err != nil {
		return nil, fmt.Errorf("%w (own query)", err)
	}
	var b bytes.Buffer
	b.WriteString(strings.Join(names, "\t") + "\n" + strings.Join(types, "\t") + "\n")
	b.Write(rows)
	return io.NopCloser(&b), nil
}

// Close closes the connection; the engine stays for the process.
func (tr *transport) Close() error {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if tr.conn != nil {
		C.tsb_disconnect(tr.conn)
		tr.conn = nil
	}
	return nil
}

// returnsRows tells the clickhouse target's queries (SELECT, WITH) from its
// statements without rows (CREATE, DROP, INSERT).
func returnsRows(q string) bool {
	f := strings.Fields(q)
	if len(f) == 0 {
		return false
	}
	switch strings.ToUpper(f[0]) {
	case "SELECT", "WITH":
		return true
	}
	return false
}

// cutSuffixFold is strings.CutSuffix ignoring case.
func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// quoteIdent is a backquoted ClickHouse identifier.
func quoteIdent(s string) string {
	return "`" + strings.NewReplacer(`\`, `\\`, "`", "\\`").Replace(s) + "`"
}
