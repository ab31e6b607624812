package e2bemu_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/serve"
)

// A layer file upload is read as it arrives (and discarded), so it may be larger than the bodies
// the emulator reads whole, as a bucket takes files of any size; an API body that large is 413.
func TestLayerFileUploadOfAnySize(t *testing.T) {
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	hash := strings.Repeat("cd", 32)
	_, _, link, _ := c.call("GET", "/templates/"+b.templateID+"/files/"+hash, nil)
	url, _ := link["url"].(string)
	large := bytes.Repeat([]byte("t"), 8*serve.MaxRequestBody)
	for _, tt := range []struct {
		method, url string
		want        int
	}{{http.MethodPut, url, http.StatusOK}, {http.MethodPost, emu.URL + "/v3/templates", http.StatusRequestEntityTooLarge}} {
		req, _ := http.NewRequest(tt.method, tt.url, bytes.NewReader(large))
		req.Header.Set("X-API-Key", apiKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s of %d MiB = %d, want %d", tt.method, tt.url, len(large)>>20, resp.StatusCode, tt.want)
		}
	}
	if _, _, again, _ := c.call("GET", "/templates/"+b.templateID+"/files/"+hash, nil); again["present"] != true {
		t.Errorf("after the upload = %v, want present", again)
	}
}
