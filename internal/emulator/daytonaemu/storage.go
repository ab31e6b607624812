package daytonaemu

import (
	"archive/tar"
	"bufio"
	"bytes"
	"crypto/md5" //nolint:gosec // S3's ETag is the MD5 of the object
	"encoding/hex"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Build contexts (the files of COPY steps) reach a build through object storage: the SDK asks
// GET /object-storage/push-access for temporary S3 credentials (object-storage.service.ts
// getPushAccess), lists <organizationId>/<hash>/ and puts <organizationId>/<hash>/context.tar
// (ObjectStorage.ts upload), and sends the hashes as buildInfo.contextHashes; the runner reads the
// tars back by hash (runner image_build.go). The emulator is that S3, path-style under
// storagePath: ListObjectsV2 and PutObject (plain or aws-chunked), keyed by bucket and key.

const (
	storagePath   = "/storage"
	storageBucket = "daytona"
	storageKey    = "emulator-access-key" // the access key push-access hands out; S3 requests must sign with it
)

// pushAccess is GET /object-storage/push-access (StorageAccessDto).
func (s *Server) pushAccess(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, map[string]string{"accessKey": storageKey, "secret": "emulator-secret",
		"sessionToken": "emulator-session", "storageUrl": baseURL(r) + storagePath,
		"organizationId": s.opts.organizationID(), "bucket": storageBucket, "region": "us-east-1"})
	return nil
}

// s3Error writes S3's XML error.
func s3Error(w http.ResponseWriter, status int, code, message string) {
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>%s</Code><Message>%s</Message></Error>`, code, message)
}

// signedForStorage tells whether r is signed (SigV4) with the push-access key. The signature
// itself is not checked.
func signedForStorage(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Authorization"), "Credential="+storageKey+"/")
}

// listObjects is ListObjectsV2 (GET /{bucket}?list-type=2&prefix=&max-keys=).
func (s *Server) listObjects(w http.ResponseWriter, r *http.Request) {
	if !signedForStorage(r) {
		s3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
		return
	}
	q := r.URL.Query()
	prefix := q.Get("prefix")
	maxKeys, err := strconv.Atoi(q.Get("max-keys"))
	if err != nil || maxKeys <= 0 {
		maxKeys = 1000
	}
	s.mu.Lock()
	var keys []string
	for key := range s.objects {
		if b, k, _ := strings.Cut(key, "/"); b == r.PathValue("bucket") && strings.HasPrefix(k, prefix) {
			keys = append(keys, k)
		}
	}
	s.mu.Unlock()
	slices.Sort(keys)
	type content struct {
		Key  string `xml:"Key"`
		Size int    `xml:"Size"`
	}
	out := struct {
		XMLName  xml.Name  `xml:"http://s3.amazonaws.com/doc/2006-03-01/ ListBucketResult"`
		Name     string    `xml:"Name"`
		Prefix   string    `xml:"Prefix"`
		KeyCount int       `xml:"KeyCount"`
		MaxKeys  int       `xml:"MaxKeys"`
		Trunc    bool      `xml:"IsTruncated"`
		Contents []content `xml:"Contents"`
	}{Name: r.PathValue("bucket"), Prefix: prefix, MaxKeys: maxKeys}
	for _, k := range keys[:min(len(keys), maxKeys)] {
		out.Contents = append(out.Contents, content{Key: k, Size: len(s.object(r.PathValue("bucket"), k))})
	}
	out.KeyCount, out.Trunc = len(out.Contents), len(keys) > maxKeys
	w.Header().Set("Content-Type", "application/xml")
	_, _ = w.Write([]byte(xml.Header))
	_ = xml.NewEncoder(w).Encode(out)
}

// putObject is PutObject (PUT /{bucket}/{key}), its body plain or in aws-chunked encoding.
func (s *Server) putObject(w http.ResponseWriter, r *http.Request) {
	if !signedForStorage(r) {
		s3Error(w, http.StatusForbidden, "AccessDenied", "Access Denied")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err == nil && (strings.Contains(r.Header.Get("Content-Encoding"), "aws-chunked") ||
		strings.HasPrefix(r.Header.Get("X-Amz-Content-Sha256"), "STREAMING-")) {
		body, err = decodeAWSChunked(body)
	}
	if err != nil {
		s3Error(w, http.StatusBadRequest, "IncompleteBody", err.Error())
		return
	}
	s.mu.Lock()
	s.objects[r.PathValue("bucket")+"/"+r.PathValue("key")] = body
	s.mu.Unlock()
	sum := md5.Sum(body) //nolint:gosec // S3's ETag
	w.Header().Set("ETag", `"`+hex.EncodeToString(sum[:])+`"`)
	w.WriteHeader(http.StatusOK)
}

// decodeAWSChunked reads an aws-chunked body: "<hex size>[;chunk-signature=...]\r\n<data>\r\n"
// until a zero-size chunk, then trailers.
func decodeAWSChunked(body []byte) ([]byte, error) {
	var out bytes.Buffer
	rd := bufio.NewReader(bytes.NewReader(body))
	for {
		header, err := rd.ReadString('\n')
		if err != nil {
			return nil, errors.New("aws-chunked body ended before its last chunk")
		}
		sizeText, _, _ := strings.Cut(strings.TrimSpace(header), ";")
		size, err := strconv.ParseInt(sizeText, 16, 64)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("aws-chunked size %q", sizeText)
		}
		if size == 0 {
			return out.Bytes(), nil
		}
		if _, err := io.CopyN(&out, rd, size); err != nil {
			return nil, errors.New("aws-chunked chunk shorter than its size")
		}
		_, _ = rd.ReadString('\n')
	}
}

// object is the bytes stored at bucket/key. Callers hold mu.
func (s *Server) object(bucket, key string) []byte { return s.objects[bucket+"/"+key] }

// contextFile is one file of a build context.
type contextFile struct {
	name string // its path in the context, without a leading /
	data []byte
	mode int64
	dir  bool
}

// buildContext is the union of the context tars of hashes. Callers hold mu.
func (s *Server) buildContext(hashes []string) ([]contextFile, string) {
	var files []contextFile
	for _, h := range hashes {
		data := s.object(storageBucket, s.opts.organizationID()+"/"+h+"/context.tar")
		if data == nil {
			return nil, fmt.Sprintf("failed to get tar from storage with hash %s: The specified key does not exist.", h) // image_build.go
		}
		tr := tar.NewReader(bytes.NewReader(data))
		for {
			hdr, err := tr.Next()
			if err != nil {
				break
			}
			content, _ := io.ReadAll(tr)
			files = append(files, contextFile{name: strings.Trim(path.Clean("/"+hdr.Name), "/"), data: content,
				mode: hdr.Mode, dir: hdr.Typeflag == tar.TypeDir})
		}
	}
	return files, ""
}

// copyStep is COPY (and ADD of local files): each source is a file or folder of the build
// context (a path from the context's root), copied to the destination as BuildKit copies it: a
// file into a destination ending in / (or an existing folder) keeps its name, a folder's contents
// go into the destination. --chown gives them to a user. Callers hold mu.
func (s *Server) copyStep(res *buildResult, args string, contextHashes []string) string {
	if res.machine == nil {
		return ""
	}
	words := shellWords(args)
	owner := ""
	for len(words) > 0 && strings.HasPrefix(words[0], "--") {
		if v, ok := strings.CutPrefix(words[0], "--chown="); ok {
			owner = v
		}
		words = words[1:]
	}
	if len(words) < 2 {
		return "failed to solve: COPY requires at least two arguments"
	}
	files, problem := s.buildContext(contextHashes)
	if problem != "" {
		return "failed to solve: " + problem
	}
	dest := words[len(words)-1]
	if !strings.HasPrefix(dest, "/") {
		dest = resolveDir(res.config.workdir, dest) + map[bool]string{true: "/"}[strings.HasSuffix(dest, "/")]
	}
	for _, src := range words[:len(words)-1] {
		rel := strings.Trim(path.Clean("/"+src), "/")
		copied := false
		for _, f := range files {
			if f.dir {
				continue
			}
			target := ""
			switch {
			case f.name == rel:
				target = dest
				if strings.HasSuffix(dest, "/") || res.machine.FS().IsDir(dest) {
					target = path.Join(dest, path.Base(f.name))
				}
			case rel == "" || strings.HasPrefix(f.name, rel+"/"):
				target = path.Join(dest, strings.TrimPrefix(strings.TrimPrefix(f.name, rel), "/"))
			default:
				continue
			}
			mode := f.mode & 0o777
			if mode == 0 {
				mode = 0o644
			}
			if err := res.machine.WriteFile(path.Clean(target), f.data, fs.FileMode(mode), owner); err != nil {
				return fmt.Sprintf("failed to solve: failed to copy files: %v", err)
			}
			copied = true
		}
		if !copied {
			return fmt.Sprintf("failed to solve: failed to compute cache key: failed to calculate checksum of ref: %q: not found", "/"+rel)
		}
	}
	return ""
}
