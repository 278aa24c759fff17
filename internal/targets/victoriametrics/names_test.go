package victoriametrics

import (
	"encoding/json"
	"testing"

	"github.com/tsbench/tsbench/internal/ts"
)

// The label part of a device is a JSON object's inside, whatever its
// names hold, and a tag key that is one of tsbench's own labels is renamed.
func TestDeviceLabelsAreJSON(t *testing.T) {
	s := &ts.Schema{Groups: []string{"g_0"}, Devices: []ts.Device{{Name: `C:\data\probe,1 "x"` + "\n", Tags: []ts.Tag{
		{Key: "host.fqdn", Value: `rack "7", row=3`}, {Key: "device", Value: "shadow"}}}}}
	keys, err := tagRule.Map(s.TagKeys())
	if err != nil {
		t.Fatal(err)
	}
	labels := deviceLabels(s, &s.Devices[0], `db "1"`, "7", keys)
	var got map[string]string
	if err := json.Unmarshal([]byte("{"+labels+"}"), &got); err != nil {
		t.Fatalf("labels %s: %v", labels, err)
	}
	if got["device"] != s.Devices[0].Name || got["db"] != `db "1"` || got["host.fqdn"] != `rack "7", row=3` {
		t.Fatalf("labels %s read back as %v", labels, got)
	}
	renamed := keys.Server("device")
	if renamed == "device" || got[renamed] != "shadow" {
		t.Fatalf("tag key device: labels %v, renamed to %q", got, renamed)
	}
}
