package browser

import "context"

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
