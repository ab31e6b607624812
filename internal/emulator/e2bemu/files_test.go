package e2bemu_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// TestLayerFileUpload: a hash the template has not got answers present false with a link; after a
// PUT to the link (no API key, as a signed URL) the same hash is present. Bad hashes are 400.
func TestLayerFileUpload(t *testing.T) {
	emu, _ := e2bemu.NewContractTestServer(t, e2bemu.Options{APIKey: apiKey})
	c := newCaller(t, emu)
	b := c.create(map[string]any{"name": "py"})
	hash := strings.Repeat("ab", 32)
	path := "/templates/" + b.templateID + "/files/" + hash
	status, _, link, _ := c.call("GET", path, nil)
	url, _ := link["url"].(string)
	if status != http.StatusCreated || link["present"] != false || !strings.HasPrefix(url, emu.URL+e2bemu.UploadPrefix) {
		t.Fatalf("first ask = %d %v, want 201, not present, a link to the emulator", status, link)
	}
	req, _ := http.NewRequest(http.MethodPut, url, strings.NewReader("a tar"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("upload = %d, want 200", resp.StatusCode)
	}
	if _, _, again, _ := c.call("GET", path, nil); again["present"] != true || again["url"] != nil {
		t.Errorf("after the upload = %v, want present without a link", again)
	}
	for _, bad := range []string{"/templates/" + b.templateID + "/files/xyz", "/templates/nope/files/" + hash} {
		if status, _, _, _ := c.call("GET", bad, nil); status != http.StatusBadRequest && status != http.StatusNotFound {
			t.Errorf("GET %s = %d, want 400 or 404", bad, status)
		}
	}
}
