package daytona

import (
	"archive/tar"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
)

// The files of file steps reach a build as the SDK sends a build context (Snapshot.ts
// processImageContext, ObjectStorage.ts upload): GET /object-storage/push-access hands out
// temporary S3 credentials; each context is a tar at <organizationId>/<hash>/context.tar, listed
// first (ListObjectsV2, one key) and put only when missing; buildInfo.contextHashes names them,
// and the Dockerfile's COPY names paths inside them. Here a step's tar holds its files under a
// folder named after their content (files-<hash>), so the Dockerfile is the same on every machine
// (the SDK's names the local absolute path), and the hash keys the upload as the SDK's md5 does.

// stepContext is the build context of one file step.
type stepContext struct {
	hash  string // the S3 key's folder: the files' hash, 32 hex digits as the SDK's md5
	base  string // the folder the tar holds the files under
	files builders.StepFiles
	step  builders.FileStep
}

// source is the COPY source of the step's files: the placed folder or file.
func (c stepContext) source() string { return c.base + "/" + c.files.Src }

// buildContexts reads the spec's file steps, by step index.
func buildContexts(spec builders.TemplateSpec) (map[int]stepContext, error) {
	contexts := map[int]stepContext{}
	for i, step := range spec.Steps {
		if step.File == nil {
			continue
		}
		files, err := step.File.Files()
		if err != nil {
			return nil, fmt.Errorf("steps[%d]: %w", i, err)
		}
		hash, err := files.Hash()
		if err != nil {
			return nil, fmt.Errorf("steps[%d]: %w", i, err)
		}
		contexts[i] = stepContext{hash: hash[:32], base: "files-" + hash[:16], files: files, step: *step.File}
	}
	return contexts, nil
}

// pushAccess is StorageAccessDto.
type pushAccess struct {
	AccessKey      string `json:"accessKey"`
	Secret         string `json:"secret"`
	SessionToken   string `json:"sessionToken"`
	StorageURL     string `json:"storageUrl"`
	OrganizationID string `json:"organizationId"`
	Bucket         string `json:"bucket"`
	Region         string `json:"region"`
}

// uploadContexts puts each context the storage lacks and returns their hashes, in step order.
func (b *Builder) uploadContexts(ctx context.Context, contexts map[int]stepContext, log *builders.BuildLog) ([]string, error) {
	if len(contexts) == 0 {
		return nil, nil
	}
	var access pushAccess
	if err := b.api.Do(ctx, apiGet("/object-storage/push-access", &access)); err != nil {
		return nil, fmt.Errorf("asking for build-context storage: %w", err)
	}
	store, err := newObjectStore(access, b.cfg.HTTPClient)
	if err != nil {
		return nil, err
	}
	var hashes []string
	for _, i := range slices.Sorted(maps.Keys(contexts)) {
		c := contexts[i]
		key := access.OrganizationID + "/" + c.hash + "/context.tar"
		present, err := store.has(ctx, access.OrganizationID+"/"+c.hash+"/")
		if err == nil && !present {
			err = store.putTar(ctx, key, c)
			log.Addf("uploaded the files of steps[%d] (%s)", i, c.hash)
		}
		if err != nil {
			return nil, fmt.Errorf("uploading the files of steps[%d]: %w", i, err)
		}
		hashes = append(hashes, c.hash)
	}
	return hashes, nil
}

// objectStore is the S3 push-access opens: path-style, SigV4 with the temporary credentials.
type objectStore struct {
	base   *url.URL
	bucket string
	region string
	creds  aws.Credentials
	http   *http.Client
	signer *v4.Signer
}

func newObjectStore(access pushAccess, httpClient *http.Client) (*objectStore, error) {
	raw := access.StorageURL
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw // the spec's example is a bare host
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("the build-context storage URL %q is no http(s) URL: %w", access.StorageURL, builders.ErrBadAnswer)
	}
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	return &objectStore{base: u, bucket: access.Bucket, region: access.Region, http: httpClient, signer: v4.NewSigner(),
		creds: aws.Credentials{AccessKeyID: access.AccessKey, SecretAccessKey: access.Secret, SessionToken: access.SessionToken}}, nil
}

// send signs req (the body unsigned, as S3 allows) and sends it; a non-2xx answer is an error
// with S3's code.
func (s *objectStore) send(req *http.Request) (*http.Response, error) {
	const unsigned = "UNSIGNED-PAYLOAD"
	req.Header.Set("X-Amz-Content-Sha256", unsigned)
	if err := s.signer.SignHTTP(req.Context(), s.creds, req, unsigned, "s3", s.region, time.Now()); err != nil {
		return nil, err
	}
	resp, err := s.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err)
	}
	if resp.StatusCode/100 != 2 {
		defer func() { _ = resp.Body.Close() }()
		var e struct {
			Code string `xml:"Code"`
		}
		_ = xml.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e)
		return nil, fmt.Errorf("%s %s: HTTP %d %s", req.Method, req.URL.Path, resp.StatusCode, e.Code)
	}
	return resp, nil
}

// has tells whether any object has prefix (ListObjectsV2 with max-keys 1).
func (s *objectStore) has(ctx context.Context, prefix string) (bool, error) {
	u := s.base.JoinPath(s.bucket)
	u.RawQuery = url.Values{"list-type": {"2"}, "prefix": {prefix}, "max-keys": {"1"}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return false, err
	}
	resp, err := s.send(req)
	if err != nil {
		return false, err
	}
	defer func() { _ = resp.Body.Close() }()
	var listed struct {
		KeyCount int        `xml:"KeyCount"`
		Contents []struct{} `xml:"Contents"`
	}
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&listed); err != nil {
		return false, fmt.Errorf("reading the storage's list: %w", err)
	}
	return listed.KeyCount > 0 || len(listed.Contents) > 0, nil
}

// putTar puts c's files as a tar at key, spooled to a temporary file so the request carries its
// exact length.
func (s *objectStore) putTar(ctx context.Context, key string, c stepContext) error {
	spool, size, done, err := builders.Spool("daytona-context-*.tar", func(w io.Writer) error { return writeContextTar(w, c) })
	if err != nil {
		return err
	}
	defer done()
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.base.JoinPath(s.bucket, key).String(), io.NopCloser(spool))
	if err != nil {
		return err
	}
	req.ContentLength = size
	req.Header.Set("Content-Length", strconv.FormatInt(size, 10))
	resp, err := s.send(req)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	return nil
}

// writeContextTar writes c's files under c.base, with the step's mode when it sets one.
func writeContextTar(w io.Writer, c stepContext) error {
	tw := tar.NewWriter(w)
	mode := int64(0)
	if c.step.Mode != "" {
		m, err := strconv.ParseUint(c.step.Mode, 8, 32)
		if err != nil {
			return fmt.Errorf("mode %q: %w", c.step.Mode, err)
		}
		mode = int64(m)
	}
	for _, e := range c.files.Entries {
		hdr := &tar.Header{Name: c.base + "/" + e.Path, Mode: int64(e.Mode & 0o7777), Format: tar.FormatPAX}
		switch {
		case e.IsDir():
			hdr.Typeflag, hdr.Name = tar.TypeDir, hdr.Name+"/"
		case e.IsSymlink():
			hdr.Typeflag, hdr.Linkname = tar.TypeSymlink, string(e.Inline)
		default:
			hdr.Typeflag, hdr.Size = tar.TypeReg, e.Size
			if mode != 0 {
				hdr.Mode = mode
			}
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if hdr.Typeflag != tar.TypeReg {
			continue
		}
		r, err := e.Open()
		if err != nil {
			return err
		}
		_, err = io.CopyN(tw, r, e.Size)
		_ = r.Close()
		if err != nil {
			return fmt.Errorf("%s changed while it was read: %w", e.Path, err)
		}
	}
	return tw.Close()
}
