package summary

// A replay of the user's data (DATA).

// Replay is the data a run wrote instead of generated data.
type Replay struct {
	Source  string `json:"source"`  // the file or directory given
	Dataset string `json:"dataset"` // the dataset directory it was read from
	Format  string `json:"format"`
	Devices int    `json:"devices"`
	Sensors int    `json:"sensors"`
	Rows    int64  `json:"rows"`
	// DuplicateRows repeat an earlier (device, time) of the file.
	DuplicateRows int64 `json:"duplicate_rows"`
	// MissingValues are the file's empty cells (sparse data): no points.
	MissingValues int64 `json:"missing_values,omitempty"`
	// FirstTime and LastTime are the data's first and last row's times
	// (RFC 3339, UTC), as read from the file: what a reader checks that
	// no time was misread (months or row numbers as seconds in 1970).
	FirstTime string `json:"first_time,omitempty"`
	LastTime  string `json:"last_time,omitempty"`
	// Repeat says the rows started again, shifted in time, once written
	// (LOOP or --duration longer than the file).
	Repeat        bool    `json:"repeat"`
	ImportSeconds float64 `json:"import_seconds,omitempty"`
}
