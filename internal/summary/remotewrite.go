package summary

// RemoteWrite is what a prometheus workload run sent by remote write: the
// protocol, and its acknowledged requests' samples and compressed bytes
// (what went on the wire, before HTTP's own headers).
type RemoteWrite struct {
	Version        string  `json:"version"` // "1.0", "2.0", or "OTLP" (OTLP/HTTP metrics, gzip)
	Requests       int64   `json:"requests"`
	Samples        int64   `json:"samples"`
	Bytes          int64   `json:"bytes"`
	BytesPerSample float64 `json:"bytes_per_sample"`
	// ActiveSeries are the series a scrape writes (the targets' alive
	// then), and NewSeriesPerMinute the series the churn started a minute
	// of scrape time, replaced targets' new series: the model's figures,
	// which verification holds the store's count of series to.
	ActiveSeries       int64   `json:"active_series,omitempty"`
	NewSeriesPerMinute float64 `json:"new_series_per_minute,omitempty"`
}
