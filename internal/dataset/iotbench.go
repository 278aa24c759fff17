package dataset

// isIoTBenchmark reports whether files are an IoT-benchmark data directory.
func isIoTBenchmark(files []string) bool { return false }

// importIoTBenchmark reads IoT-benchmark's generated data files.
func importIoTBenchmark(src string, files []string, dir string, o ImportOptions) (*Manifest, error) {
	return nil, &InputError{File: src, Msg: "IoT-benchmark import is not built yet"}
}
