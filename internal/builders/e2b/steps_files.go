package e2b

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// The files of a file step reach E2B as the SDKs send them (js-sdk template/index.ts build): the
// build's COPY step names them by their filesHash; before the build starts, the client asks E2B
// for an upload link for that hash (GET /templates/{templateID}/files/{hash}) and, unless E2B has
// them already, PUTs a gzipped tar of them there (a signed bucket URL: no API key goes with it).

// stepUpload is the files of one file step of a build.
type stepUpload struct {
	hash  string
	files builders.StepFiles
	step  builders.SpecStep
}

type templateBuildFileUpload struct {
	Present bool   `json:"present"`
	URL     string `json:"url"`
}

// fileUploadLink asks where the files with hash go; present means E2B has them already.
func (c *client) fileUploadLink(ctx context.Context, templateID, hash string) (templateBuildFileUpload, error) {
	var out templateBuildFileUpload
	err := c.Do(ctx, apihttp.Request{Method: http.MethodGet,
		Path: "/templates/" + url.PathEscape(templateID) + "/files/" + url.PathEscape(hash), Out: &out})
	return out, err
}

// uploadFiles sends each file step's files that E2B does not have yet.
func (b *Builder) uploadFiles(ctx context.Context, templateID string, uploads []stepUpload, logs *buildLog) error {
	for _, u := range uploads {
		link, err := b.api.fileUploadLink(ctx, templateID, u.hash)
		if err != nil {
			return fmt.Errorf("uploading the files of %s: %w", u.step.Describe(), err)
		}
		if link.Present {
			logs.Addf("files of %s already on E2B (%s)", u.step.Describe(), u.hash)
			continue
		}
		if link.URL == "" {
			return fmt.Errorf("uploading the files of %s: E2B answered without an upload link", u.step.Describe())
		}
		if err := b.putArchive(ctx, link.URL, u.files); err != nil {
			return fmt.Errorf("uploading the files of %s: %w", u.step.Describe(), err)
		}
		logs.Addf("uploaded the files of %s (%s)", u.step.Describe(), u.hash)
	}
	return nil
}

// putArchive PUTs the files as a gzipped tar to link, spooled to a temporary file so the request
// carries an exact Content-Length (signed bucket URLs refuse chunked uploads: e2b-dev/E2B#1243).
// The link is a storage bucket's, not the API's: a client of its own, bounded only by the build's
// context (a large upload outlasts the per-request timeout).
func (b *Builder) putArchive(ctx context.Context, link string, files builders.StepFiles) error {
	spool, size, done, err := builders.Spool("sandbox-template-files-*.tar.gz", func(w io.Writer) error { return writeArchive(w, files) })
	if err != nil {
		return err
	}
	defer done()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, link, spool)
	if err != nil {
		return err
	}
	req.ContentLength = size
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return apihttp.UnwrapURLError(err)
	}
	defer apihttp.Drain(resp)
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("the upload link answered %s", resp.Status)
	}
	return nil
}

// writeArchive writes the entries as a gzipped tar, paths relative to the step's context, as
// the SDK's tar.create does; E2B unpacks it and moves Src to the destination.
func writeArchive(w io.Writer, files builders.StepFiles) error {
	gz := gzip.NewWriter(w)
	tw := tar.NewWriter(gz)
	for _, e := range files.Entries {
		hdr := &tar.Header{Name: e.Path, Mode: int64(e.Mode & 0o7777), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		switch {
		case e.IsDir():
			hdr.Typeflag, hdr.Name = tar.TypeDir, e.Path+"/"
		case e.IsSymlink():
			hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, string(e.Inline)
		case e.IsRegular():
			hdr.Typeflag, hdr.Size = tar.TypeReg, e.Size
		default:
			continue // sockets and devices are not files to place
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag == tar.TypeReg {
			if err := copyEntry(tw, e); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func copyEntry(w io.Writer, e builders.PlacedFile) error {
	r, err := e.Open()
	if err != nil {
		return err
	}
	defer func() { _ = r.Close() }()
	n, err := io.Copy(w, r)
	if err == nil && n != e.Size {
		err = fmt.Errorf("%s changed while it was read", e.Path)
	}
	return err
}
