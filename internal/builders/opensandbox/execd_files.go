package opensandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"path"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
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
// The parent folders are created; the file gets perm. The file is read as it is sent, never held
// whole: a step may place files of gigabytes.
func (e *execd) upload(ctx context.Context, target string, perm filePermission, file builders.PlacedFile) error {
	meta, err := json.Marshal(struct {
		Path string `json:"path"`
		filePermission
	}{target, perm})
	if err != nil {
		return err
	}
	var framing bytes.Buffer
	form := multipart.NewWriter(&framing)
	if err := writePart(form, "metadata", "metadata", "application/json", meta); err != nil {
		return err
	}
	if err := writePart(form, "file", path.Base(target), "application/octet-stream", nil); err != nil {
		return err
	}
	head := bytes.Clone(framing.Bytes())
	framing.Reset()
	if err := form.Close(); err != nil { // the closing boundary, after the file's bytes
		return err
	}
	tail := framing.Bytes()
	body := &apihttp.Upload{Size: int64(len(head)) + file.Size + int64(len(tail)), Open: func() (io.ReadCloser, error) {
		content, err := file.Open()
		if err != nil {
			return nil, err
		}
		sized := &exactly{r: content, left: file.Size, name: file.Path}
		return readCloser{io.MultiReader(bytes.NewReader(head), sized, bytes.NewReader(tail)), content}, nil
	}}
	return e.api.Do(ctx, apihttp.Request{Method: http.MethodPost, Path: "/files/upload", Upload: body, ContentType: form.FormDataContentType()})
}

// writePart adds a form-data part of a file; nil data leaves the part open for bytes sent later.
func writePart(form *multipart.Writer, name, filename, contentType string, data []byte) error {
	header := textproto.MIMEHeader{}
	header.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, name, filename))
	header.Set("Content-Type", contentType)
	w, err := form.CreatePart(header)
	if err == nil {
		_, err = w.Write(data)
	}
	return err
}

// exactly reads r, which must hold left bytes: a file that grew or shrank since its size was taken
// would send a body of another length than the one announced.
type exactly struct {
	r    io.Reader
	left int64
	name string
}

func (x *exactly) Read(p []byte) (int, error) {
	n, err := x.r.Read(p)
	x.left -= int64(n)
	switch {
	case x.left < 0, err == io.EOF && x.left > 0:
		return n, fmt.Errorf("%s changed while it was read", x.name)
	}
	return n, err
}

type readCloser struct {
	io.Reader
	io.Closer
}
