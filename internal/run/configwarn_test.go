package run

import (
	"bytes"
	"testing"
)

func TestPrintListsIgnoredKeysOnce(t *testing.T) {
	ws := []string{
		"a.properties:3: TEST_DATA_PERSISTENCE accepted, ignored: tsbench keeps every run",
		"a.properties:4: LOOP set again (first at a.properties:2); the last value counts",
		"a.properties:5: IS_COPY_MODE accepted, ignored: copy modes are not supported",
	}
	var b bytes.Buffer
	PrintConfigWarnings(&b, ws)
	want := "tsbench: warning: 2 IoT-benchmark key(s) accepted but not used by tsbench (--strict refuses them):\n" +
		"  a.properties:3: TEST_DATA_PERSISTENCE: tsbench keeps every run\n" +
		"  a.properties:5: IS_COPY_MODE: copy modes are not supported\n" +
		"tsbench: warning: a.properties:4: LOOP set again (first at a.properties:2); the last value counts\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	PrintConfigWarnings(&b, nil)
	if b.Len() != 0 {
		t.Errorf("no warnings: %q", b.String())
	}
}
