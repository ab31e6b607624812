package opensandboxemu

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// uploadTo POSTs form to the sandbox's execd /files/upload and returns the status and body.
func uploadTo(t *testing.T, s *Server, sandboxID string, form *bytes.Buffer, contentType string) (int, string) {
	t.Helper()
	_, ep, _ := call(t, s, "GET", "/v1/sandboxes/"+sandboxID+"/endpoints/44772", "", nil)
	endpoint, _ := ep["endpoint"].(string)
	headers, _ := ep["headers"].(map[string]any)
	token, _ := headers[ExecdTokenHeader].(string)
	req, _ := http.NewRequest(http.MethodPost, "http://"+endpoint+"/files/upload", form)
	req.Header.Set(ExecdTokenHeader, token)
	req.Header.Set("Content-Type", contentType)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// An upload is read as it arrives, whatever its size: execd's record has its size, its SHA-256 and
// its first MaxKeptContent bytes, and the request is recorded without its body. More parts than
// Go's multipart reader takes (execd's) are refused.
func TestExecdUploadsAreHashedAsTheyArrive(t *testing.T) {
	s := NewTestServer(t, Options{})
	_, created, _ := call(t, s, "POST", "/v1/sandboxes", "", validCreate)
	sandboxID, _ := created["id"].(string)
	content := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16) // over the guard's bound for whole bodies
	var form bytes.Buffer
	w := multipart.NewWriter(&form)
	meta, _ := w.CreateFormFile("metadata", "metadata")
	_, _ = meta.Write([]byte(`{"path":"/data/big.bin","owner":"root","group":"root","mode":644}`))
	file, _ := w.CreateFormFile("file", "big.bin")
	_, _ = file.Write(content)
	_ = w.Close()
	if status, body := uploadTo(t, s, sandboxID, &form, w.FormDataContentType()); status != http.StatusOK {
		t.Fatalf("a 3 MiB upload = %d %s", status, body)
	}
	sum := sha256.Sum256(content)
	calls := s.Sandboxes()[0].Calls
	if len(calls) != 1 || calls[0].Upload == nil || calls[0].Upload.Path != "/data/big.bin" || calls[0].Upload.Size != int64(len(content)) ||
		calls[0].Upload.SHA256 != hex.EncodeToString(sum[:]) || !bytes.Equal(calls[0].Upload.Content, content[:MaxKeptContent]) {
		t.Errorf("recorded %d calls, the upload %+v; want its size %d, its hash and its first %d bytes", len(calls), calls[0].Upload, len(content), MaxKeptContent)
	}
	for _, r := range s.Requests() {
		if strings.HasSuffix(r.Path, "/files/upload") && r.Body != nil {
			t.Errorf("the upload request was recorded with %d bytes of body", len(r.Body))
		}
	}

	form.Reset()
	w = multipart.NewWriter(&form)
	for range maxUploadParts / 2 {
		meta, _ := w.CreateFormFile("metadata", "metadata")
		_, _ = meta.Write([]byte(`{"path":"/data/x"}`))
		file, _ := w.CreateFormFile("file", "x")
		_, _ = file.Write([]byte("x"))
	}
	_, _ = w.CreateFormFile("file", "one-too-many")
	_ = w.Close()
	if status, body := uploadTo(t, s, sandboxID, &form, w.FormDataContentType()); status != http.StatusBadRequest || !strings.Contains(body, "multipart: message too large") {
		t.Errorf("%d parts = %d %s, want 400", maxUploadParts+1, status, body)
	}
	if n := len(s.Sandboxes()[0].Calls); n != 1 {
		t.Errorf("the refused upload recorded %d calls", n-1)
	}
}
