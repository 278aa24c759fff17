package run

// The tool's identity, which runs record and the results store files;
// 'tsbench version' prints it. Each may be set at build time with
// -ldflags "-X github.com/tsbench/tsbench/internal/run.Version=... -X
// ...run.Commit=... -X ...run.BuildDate=...". Without Commit and BuildDate
// the version line shows the commit go build stamped (in a git checkout,
// unless GOFLAGS has -buildvcs=false) and that commit's date.
var (
	Version   = "0.1.0-dev"
	Commit    = ""
	BuildDate = ""
)
