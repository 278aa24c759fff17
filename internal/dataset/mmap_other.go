//go:build !unix

package dataset

import "os"

// mapFile does not map on this system: reads use ReadAt.
func mapFile(*os.File) []byte { return nil }

func unmap([]byte) {}
