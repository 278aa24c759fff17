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
}
