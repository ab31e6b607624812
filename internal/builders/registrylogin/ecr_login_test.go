package registrylogin

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

const (
	specKeyID  = "AKIASPECKEYID0000001"
	specSecret = "spec-secret-access-key/never+in+errors"
	ecrImage   = "210987654321.dkr.ecr.eu-west-1.amazonaws.com/team/app:1.4"
)

func awsAuth(keyID, secret, region string) *builders.AWSAuth {
	return &builders.AWSAuth{AccessKeyID: keyID, SecretAccessKey: builders.NewSecret(secret), Region: region}
}

func newECR(t *testing.T) *awsemu.Emulator {
	t.Helper()
	e := awsemu.NewTestServer(t, awsemu.Options{})
	e.SetCredentials(specKeyID, specSecret)
	e.IssueToken("AWS", "ecr-password:with-colon")
	return e
}

// TestECRLoginEndpointSources exchanges the spec's keys end to end through the real SDK, with the
// endpoint coming from each place it can.
func TestECRLoginEndpointSources(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, emulatorURL string) Exchanger
	}{
		{"Exchanger.AWSBaseEndpoint", func(t *testing.T, url string) Exchanger { return Exchanger{AWSBaseEndpoint: url} }},
		{"AWS_ENDPOINT_URL_ECR", func(t *testing.T, url string) Exchanger {
			t.Setenv("AWS_ENDPOINT_URL_ECR", url)
			return Exchanger{}
		}},
		{"AWS_ENDPOINT_URL", func(t *testing.T, url string) Exchanger {
			t.Setenv("AWS_ENDPOINT_URL", url)
			return Exchanger{}
		}},
		{"field wins over AWS_ENDPOINT_URL_ECR", func(t *testing.T, url string) Exchanger {
			t.Setenv("AWS_ENDPOINT_URL_ECR", "http://127.0.0.1:1")
			return Exchanger{AWSBaseEndpoint: url}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateAWS(t)
			e := newECR(t)
			user, pass, err := tt.setup(t, e.URL).Login(t.Context(), ecrImage, awsAuth(specKeyID, specSecret, "eu-west-1"))
			if err != nil {
				t.Fatal(err)
			}
			if user != "AWS" || pass.Reveal() != "ecr-password:with-colon" {
				t.Errorf("login = %q / %q, want AWS / the issued password", user, pass.Reveal())
			}
			reqs := e.Requests()
			if len(reqs) != 1 {
				t.Fatalf("recorded %d requests, want 1", len(reqs))
			}
			got := reqs[0]
			if got.Region != "eu-west-1" || got.AccessKeyID != specKeyID || got.Service != "ecr" {
				t.Errorf("signed for %s/%s by %s: want the spec's region and key, not the environment's", got.Service, got.Region, got.AccessKeyID)
			}
			if strings.Contains(got.Body, "registryIds") {
				t.Errorf("request %s names the registry: ECR deprecated registryIds", got.Body)
			}
		})
	}
}

// An ECR token goes only to the ECR registry it is for: for an image on any other registry no
// token is minted at all, and the error names the host it would have gone to.
func TestECRLoginOnlyForECRRegistries(t *testing.T) {
	isolateAWS(t)
	e := newECR(t)
	_, _, err := Exchanger{AWSBaseEndpoint: e.URL}.Login(t.Context(), "registry.example.com/app:1", awsAuth(specKeyID, specSecret, "us-east-2"))
	buildertest.AssertStage(t, err, builders.StageValidation, "registry_auth.aws: is an Amazon ECR login, but image is on registry.example.com")
	if n := len(e.Requests()); n != 0 {
		t.Errorf("%d requests reached ECR for an image on another registry, want none", n)
	}
}

func TestECRLoginUsesTheExchangersHTTPClient(t *testing.T) {
	isolateAWS(t)
	e := newECR(t)
	transport := &countingTransport{}
	ex := Exchanger{AWSBaseEndpoint: e.URL, HTTPClient: &http.Client{Transport: transport}}
	if _, _, err := ex.Login(t.Context(), ecrImage, awsAuth(specKeyID, specSecret, "eu-west-1")); err != nil {
		t.Fatal(err)
	}
	if transport.requests.Load() != 1 {
		t.Errorf("the Exchanger's HTTP client carried %d requests, want 1", transport.requests.Load())
	}
}

func TestECRLoginFailures(t *testing.T) {
	tests := []struct {
		name         string
		keyID        string
		secret       string
		region       string
		deny         bool
		token        [2]string
		wantStage    builders.Stage
		wantContains []string
		wantRequests int
	}{
		{name: "wrong secret", keyID: specKeyID, secret: "wrong-secret-value-xyz", region: "eu-west-1",
			wantStage: builders.StageRegistryAuth, wantContains: []string{"InvalidSignatureException", "signature we calculated does not match", "eu-west-1"}, wantRequests: 1},
		{name: "unknown access key", keyID: "AKIAUNKNOWN000000001", secret: specSecret, region: "eu-west-1",
			wantStage: builders.StageRegistryAuth, wantContains: []string{"UnrecognizedClientException", "security token included in the request is invalid"}, wantRequests: 1},
		{name: "no IAM permission", keyID: specKeyID, secret: specSecret, region: "eu-west-1", deny: true,
			wantStage: builders.StageRegistryAuth, wantContains: []string{"AccessDeniedException", "ecr:GetAuthorizationToken"}, wantRequests: 1},
		{name: "region differs from the image host", keyID: specKeyID, secret: specSecret, region: "us-east-1",
			wantStage: builders.StageValidation, wantContains: []string{`is "us-east-1"`, `in "eu-west-1"`, "regional"}, wantRequests: 0},
		{name: "token without a colon", keyID: specKeyID, secret: specSecret, region: "eu-west-1", token: [2]string{"AWS", ""},
			wantStage: builders.StageRegistryAuth, wantContains: []string{"not user:password"}, wantRequests: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			isolateAWS(t)
			e := newECR(t)
			if tt.deny {
				e.DenyAccess("GetAuthorizationToken")
			}
			if tt.token != [2]string{} {
				e.IssueToken(tt.token[0], tt.token[1])
			}
			_, _, err := Exchanger{AWSBaseEndpoint: e.URL}.Login(t.Context(), ecrImage, awsAuth(tt.keyID, tt.secret, tt.region))
			t.Logf("error: %v", err)
			buildertest.AssertStage(t, err, tt.wantStage, tt.wantContains...)
			assertNoSecret(t, err, tt.secret, specSecret)
			if got := len(e.Requests()); got != tt.wantRequests {
				t.Errorf("%d requests reached ECR, want %d", got, tt.wantRequests)
			}
		})
	}
}
