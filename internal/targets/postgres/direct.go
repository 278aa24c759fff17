package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// copyDirect is write_path=copy's first try: one binary COPY straight into
// the table, a statement of its own (its own transaction, one round trip
// and one commit, as TSBS's loader sends). COPY cannot upsert, but the
// table's primary key refuses a second row at a stored (series, t) or
// (device, t): the COPY then fails as a whole, nothing of it is kept, and
// done is false, so the caller writes the batch again through the staging
// table and INSERT ... ON CONFLICT, which replaces the stored points. A
// batch of new points thus costs a plain COPY (heap pages filled in bulk,
// one index insertion per row), not a COPY plus a row-by-row upsert of the
// same rows; a rewrite still never doubles a point.
//
// The timescaledb driver keeps the staging path alone (its copy path is
// not tested: the PGlite build it is tested against exits on COPY).
func (t *Target) copyDirect(ctx context.Context, table string, cols []string, src pgx.CopyFromSource) (done bool, err error) {
	if t.timescale {
		return false, nil
	}
	if _, err := t.c.pg.CopyFrom(ctx, pgx.Identifier{table}, cols, src); err != nil {
		if conflict(err) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}

// conflict tells whether err is a unique violation (23505): a point already
// stored at one of the batch's keys.
func conflict(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
