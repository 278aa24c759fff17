package browser

import (
	"context"
	"fmt"
)

// DOM loads the report at path in Chromium and returns the page as the
// browser holds it once its scripts ran, for tests that look for what the
// page shows besides charts (the comparison table, its ratios).
func DOM(ctx context.Context, bin, path string) (string, error) {
	u, err := fileURL(path)
	if err != nil {
		return "", err
	}
	dom, err := run(ctx, bin, "--virtual-time-budget=15000", "--dump-dom", u)
	return string(dom), err
}

// DOMAt is DOM in a window width x height pixels: the layout, and what a
// test's own script measured of it, depend on the width.
func DOMAt(ctx context.Context, bin, path string, width, height int) (string, error) {
	u, err := fileURL(path)
	if err != nil {
		return "", err
	}
	dom, err := run(ctx, bin, "--virtual-time-budget=15000", fmt.Sprintf("--window-size=%d,%d", width, height), "--dump-dom", u)
	return string(dom), err
}
