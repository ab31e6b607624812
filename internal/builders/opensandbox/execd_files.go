package opensandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// filePermission is execd's model.Permission: owner and group by name, mode as octal digits read
// as a decimal number (755 is 0755: controller/utils.go ChmodFile); zero fields leave it as is.
type filePermission struct {
	Owner string `json:"owner,omitempty"`
	Group string `json:"group,omitempty"`
	Mode  int    `json:"mode,omitempty"`
}

// makeDir is POST /directories: MkdirAll, and owner and mode on the folder only when it creates it
// (controller/utils.go MakeDir).
func (e *execd) makeDir(ctx context.Context, dir string, perm filePermission) error {
	return e.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/directories", In: map[string]filePermission{dir: perm}})
}

// upload is POST /files/upload: one file, its metadata part first, as the official SDKs send it
// (a "metadata" part with a filename, which execd reads as a file part: controller/filesystem_upload.go).
// The parent folders are created; the file gets perm.
func (e *execd) upload(ctx context.Context, target string, perm filePermission, content []byte) error {
	meta, err := json.Marshal(struct {
		Path string `json:"path"`
		filePermission
	}{target, perm})
	if err != nil {
		return err
	}
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	for _, part := range []struct {
		name, filename, contentType string
		data                        []byte
	}{{"metadata", "metadata", "application/json", meta}, {"file", path.Base(target), "application/octet-stream", content}} {
		header := textproto.MIMEHeader{}
		header.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, part.name, part.filename))
		header.Set("Content-Type", part.contentType)
		w, err := form.CreatePart(header)
		if err != nil {
			return err
		}
		if _, err := w.Write(part.data); err != nil {
			return err
		}
	}
	if err := form.Close(); err != nil {
		return err
	}
	return e.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/files/upload", Body: body.Bytes(), ContentType: form.FormDataContentType()})
}
