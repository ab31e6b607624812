package awsemu

import (
	"net/http"
	"strings"
	"testing"
)

// The body of a request refused for its signature is not kept: anyone on the machine can send one.
func TestBodiesOfUnauthenticatedRequestsAreNotKept(t *testing.T) {
	e := NewTestServer(t, Options{AccessKeyID: "AKIAKEPTBODIES000001", SecretAccessKey: "s"})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, e.URL+"/", strings.NewReader(`{"registryIds":["unsigned"]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Amz-Target", ecrTargetPrefix+"GetAuthorizationToken")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	got := e.Requests()
	if len(got) != 1 || got[0].ErrorCode == "" || got[0].Body != "" {
		t.Errorf("recorded %+v: want the refused request without its body", got)
	}
}
