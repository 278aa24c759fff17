package pgwire

import (
	"container/list"
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/tsbench/tsbench/internal/sockwatch"
	"github.com/tsbench/tsbench/internal/targets"
)

// Counted runs the measured executions of the user's own statements
// (targets.Statement.CountOnly) on one connection at pgconn's level, as
// pgbench -M prepared does with libpq: each text is prepared once per
// session under a name of its own, its parameters are encoded into buffers
// kept from one execution to the next, and the answer's rows are counted as
// they arrive, never decoded. pgx.Conn.Query does the same round trip but
// costs a few microseconds of client CPU more per execution (its query
// builder, its rows and their allocations): on a query the server answers
// in 20 µs that is a fifth of what the client spends (docs/measuring.md).
//
// A session keeps at most Limit texts prepared, the least recently run
// deallocated first, as pgx's own statement cache does: a template that
// writes names into its text ({{x|ident}}) gives one text per name drawn,
// and neither the client's map nor the server's session may grow with them.
//
// A Counted belongs to one connection and, like it, is not safe for
// concurrent use. The zero value is ready.
type Counted struct {
	// Limit bounds the texts prepared on a session; zero is DefaultLimit.
	Limit int

	session  *pgconn.PgConn // whose prepared statements stmts names
	stmts    map[string]*list.Element
	recent   list.List // of *prepared, the most recently run first
	named    int       // names given on this session
	params   [][]byte
	encoded  [][]byte // params' storage, kept between executions
	prepares int64
	watch    sockwatch.Watch
}

// DefaultLimit is pgx's statement cache capacity.
const DefaultLimit = 512

// prepared is a text prepared on the session: its description and the
// format each parameter is sent in.
type prepared struct {
	text    string
	desc    *pgconn.StatementDescription
	formats []int16
}

// Count runs st, which must bind its parameters with numbered placeholders
// for a connection in pgx's statement-caching mode, and returns its answer's
// row count. wrap gives an error its target's context (RunStatement).
func (c *Counted) Count(ctx context.Context, pg *pgx.Conn, st *targets.Statement, wrap func(what string, err error) error) (targets.Rows, error) {
	p, err := c.prepare(ctx, pg, st.Text)
	if err != nil {
		return targets.Rows{}, wrap("own query: prepare", err)
	}
	if err := c.encode(pg, p, st.Args); err != nil {
		return targets.Rows{}, wrap("own query", err)
	}
	session := pg.PgConn()
	if err := c.watch.Arm(ctx, session.Conn()); err != nil {
		return targets.Rows{}, wrap("own query", err)
	}
	// ctx is watched on the socket (sockwatch), not by pgconn for each
	// execution. The statement's description, known since it was
	// prepared, spares a Describe per execution and the server's answer
	// to it (pgx's statement cache does the same; libpq, and so pgbench,
	// sends one).
	rr := session.ExecStatement(context.Background(), p.desc, c.params, p.formats, nil)
	var out targets.Rows
	for rr.NextRow() {
		out.Count++
	}
	if _, err := rr.Close(); err != nil {
		if cause := ctx.Err(); cause != nil {
			err = fmt.Errorf("%w: %w", cause, err)
		}
		return out, wrap("own query", err)
	}
	return out, nil
}

// Prepares counts the texts prepared, over every session: a text is
// prepared again only on a new session (after a reconnect).
func (c *Counted) Prepares() int64 { return c.prepares }

// prepare returns text prepared on pg's session, preparing it on first use.
// A new session (pgwire.Conn re-opened the connection) holds none of the
// last one's statements.
func (c *Counted) prepare(ctx context.Context, pg *pgx.Conn, text string) (*prepared, error) {
	if s := pg.PgConn(); s != c.session {
		c.session, c.stmts, c.named = s, map[string]*list.Element{}, 0
		c.recent.Init()
	}
	if e, ok := c.stmts[text]; ok {
		c.recent.MoveToFront(e)
		return e.Value.(*prepared), nil
	}
	if err := c.makeRoom(ctx); err != nil {
		return nil, err
	}
	name := "tsbench_counted_" + strconv.Itoa(c.named)
	c.named++
	desc, err := c.session.Prepare(ctx, name, text, nil)
	if err != nil {
		return nil, err
	}
	p := &prepared{text: text, desc: desc, formats: make([]int16, len(desc.ParamOIDs))}
	types := pg.TypeMap()
	for i, oid := range desc.ParamOIDs {
		p.formats[i] = types.FormatCodeForOID(oid)
	}
	c.stmts[text] = c.recent.PushFront(p)
	c.prepares++
	return p, nil
}

// makeRoom deallocates the least recently run statements until one more
// fits under the limit.
func (c *Counted) makeRoom(ctx context.Context) error {
	limit := c.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	for c.recent.Len() >= limit {
		oldest := c.recent.Back()
		p := oldest.Value.(*prepared)
		if err := c.session.Deallocate(ctx, p.desc.Name); err != nil {
			return fmt.Errorf("deallocate %s: %w", p.desc.Name, err)
		}
		c.recent.Remove(oldest)
		delete(c.stmts, p.text)
	}
	return nil
}

// encode writes args as p's parameters, each in the type the server
// inferred for its placeholder, into the kept buffers.
func (c *Counted) encode(pg *pgx.Conn, p *prepared, args []any) error {
	if len(args) != len(p.desc.ParamOIDs) {
		return fmt.Errorf("%d parameters bound, the statement has %d placeholders", len(args), len(p.desc.ParamOIDs))
	}
	for len(c.encoded) < len(args) {
		// Never nil: pgx encodes NULL as a nil buffer, so an empty text
		// appended to a nil one would be sent as NULL.
		c.encoded = append(c.encoded, make([]byte, 0, 32))
	}
	c.params = c.params[:0]
	types := pg.TypeMap()
	for i, a := range args {
		buf, err := types.Encode(p.desc.ParamOIDs[i], p.formats[i], a, c.encoded[i][:0])
		if err != nil {
			return fmt.Errorf("parameter $%d (%v): %w", i+1, a, err)
		}
		if buf != nil {
			c.encoded[i] = buf[:0]
		}
		c.params = append(c.params, buf) // nil is NULL
	}
	return nil
}
