package summary

// The user's own queries (QUERY_FILE).

// QueryFile is what a run did with the user's own queries.
type QueryFile struct {
	Path string `json:"path"`
	// QueryOnly: the run only queried data already stored (QUERY_ONLY):
	// it created no schema, wrote nothing and counted nothing.
	QueryOnly bool       `json:"query_only,omitempty"`
	Queries   []OwnQuery `json:"queries"`
}

// OwnQuery is one of the user's queries as the target ran it.
type OwnQuery struct {
	Name     string `json:"name"`
	Key      string `json:"key"`      // the file's text it ran: a target's name or a language
	Language string `json:"language"` // the target's language
	// Engine is the language's engine where it has several
	// (targets.Language.Engine): "prometheus", "metricsql".
	Engine string `json:"engine,omitempty"`
	Text   string `json:"text"` // as the file wrote it
	Weight int64  `json:"weight"`
	// Rows returned per measured execution.
	RowsMin    int64 `json:"rows_min"`
	RowsMedian int64 `json:"rows_median"`
	RowsMax    int64 `json:"rows_max"`
	// Plan is the statement's plan (EXPLAIN), captured once with the
	// first checked parameter set; PlanError why it could not be.
	Plan      string `json:"plan,omitempty"`
	PlanError string `json:"plan_error,omitempty"`
	// Answers are the answers to the checked parameter sets, drawn with
	// fixed seeds: the same sets on every target, so that two runs of one
	// file compare answer by answer.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is a query's answer to one parameter set.
type Answer struct {
	Params map[string]string `json:"params"`
	Rows   int64             `json:"rows"`
	// Sample is the answer's first rows; Values, kept in memory only, its
	// first targets.MaxRows rows, which answers are compared by.
	Sample [][]any `json:"sample,omitempty"`
	Values [][]any `json:"-"`
	Error  string  `json:"error,omitempty"`
}
