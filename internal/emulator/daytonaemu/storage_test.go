package daytonaemu

import (
	"archive/tar"
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// putContext stores a context tar holding files (name -> content) at org/hash/context.tar, as the
// SDK's ObjectStorage.upload does, in aws-chunked encoding when chunked.
func putContext(t *testing.T, c *client, hash string, files map[string]string, chunked bool, signed bool) int {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for name, content := range files {
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg})
		_, _ = tw.Write([]byte(content))
	}
	_ = tw.Close()
	body := buf.Bytes()
	if chunked {
		body = []byte(fmt.Sprintf("%x;chunk-signature=abc\r\n%s\r\n0;chunk-signature=def\r\nx-amz-checksum-crc32:AAAA\r\n\r\n", len(body), body))
	}
	url := c.s.URL + storagePath + "/" + storageBucket + "/" + defaultOrganizationID + "/" + hash + "/context.tar"
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPut, url, bytes.NewReader(body))
	if signed {
		req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+storageKey+"/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=00")
	}
	if chunked {
		req.Header.Set("Content-Encoding", "aws-chunked")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	return resp.StatusCode
}

// COPY takes files from the context tars put in object storage under the organization and each
// hash (plain or aws-chunked), a file into a folder keeping its name and a folder's contents into
// the destination, given to --chown's user; a source no context holds fails the build as BuildKit
// does, and storage refuses a request not signed with the push-access key.
func TestCopyFromUploadedContext(t *testing.T) {
	c := newClient(t, Options{})
	access := c.must(http.StatusOK, http.MethodGet, "/object-storage/push-access", nil)
	if access["storageUrl"] != c.s.URL+storagePath || access["organizationId"] != defaultOrganizationID {
		t.Fatalf("push access %v", access)
	}
	if got := putContext(t, c, "h1", map[string]string{"src/app.py": "print(1)\n"}, false, false); got != http.StatusForbidden {
		t.Errorf("unsigned put: %d, want 403", got)
	}
	putContext(t, c, "h1", map[string]string{"src/app.py": "print(1)\n"}, false, true)
	putContext(t, c, "h2", map[string]string{"cfg/a/b.ini": "[b]\n"}, true, true)
	dockerfile := "FROM python:3.12-slim\nCOPY --chown=nobody /src/app.py /app/\nCOPY /cfg /etc/cfg\n"
	_, sn := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "files",
		"buildInfo": map[string]any{"dockerfileContent": dockerfile, "contextHashes": []string{"h1", "h2"}}}))
	if sn["state"] != StateActive {
		t.Fatalf("build: %v %v", sn["state"], sn["errorReason"])
	}
	sb := c.must(http.StatusOK, http.MethodPost, "/sandbox", map[string]any{"snapshot": "files"})
	out := c.must(http.StatusOK, http.MethodPost, "/toolbox/"+str(sb, "id")+"/process/execute",
		map[string]any{"command": "cat /app/app.py /etc/cfg/a/b.ini && ls -l /app/app.py"})
	if result := str(out, "result"); !strings.HasPrefix(result, "print(1)\n[b]\n-rw-r--r-- 1 nobody ") {
		t.Errorf("copied files: %q", result)
	}

	_, missing := c.states(c.must(http.StatusOK, http.MethodPost, "/snapshots", map[string]any{"name": "nofile",
		"buildInfo": map[string]any{"dockerfileContent": "FROM python:3.12-slim\nCOPY /nope.txt /x\n", "contextHashes": []string{"h1"}}}))
	if reason := str(missing, "errorReason"); missing["state"] != StateError || !strings.Contains(reason, `"/nope.txt": not found`) {
		t.Errorf("missing source: %v %q", missing["state"], reason)
	}
}
