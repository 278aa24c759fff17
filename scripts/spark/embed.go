// Package spark holds the Spark job of the das-events analytics phase,
// das_analytics.py, built into every binary that imports it, so that
// tsbench runs the job from any working directory, with no checkout
// beside it. internal/analytics/spark submits it.
//
// It stands apart from its one importer, internal/analytics/spark: the
// job is a PySpark script that people also run by hand with spark-submit
// (see its docstring), docs/analytics.md and scripts/ci/install-spark.sh
// name it here, beside the other scripts, and go:embed reads only files at
// or below the embedding package's directory, hence this package.
package spark

import _ "embed"

// Name is the job's file name, which spark-submit is given.
const Name = "das_analytics.py"

// Job is the text of das_analytics.py (a string: nobody can change it).
//
//go:embed das_analytics.py
var Job string
