package provider

import (
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/imagedigest/imagedigesttest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
)

// Issue 23: with image_digest_check on, a plan sends each credential only where it is for. A
// sink serves registries and token services under their real host names (over TLS, through the
// provider's registry transport) and records which host saw which credential.

const (
	sinkECRHost    = "123456789012.dkr.ecr.eu-west-1.amazonaws.com"
	sinkGoogleHost = "europe-docker.pkg.dev"
	sinkRegistry   = "registry.sink.test"
	sinkTokens     = "auth.sink.test"
	sinkAWSKeyID   = "AKIASINKROUTING00001"
	sinkAWSSecret  = "sink-aws-secret/routing"
)

// sinkFactories serve a provider whose registry requests reach sink.
func sinkFactories(sink *imagedigesttest.Sink) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"sandbox": providerserver.NewProtocol6WithError(&sandboxProvider{version: "test", registryTransport: sink.Transport,
			getenv: func(string) string { return "" }}),
	}
}

// routedTemplate is an E2B template of image, checked strictly at every plan with auth (a
// registry_auth body); providerExtra goes into the provider block.
func routedTemplate(emu *e2bemu.Server, providerExtra, image, auth string) string {
	return fmt.Sprintf(`
provider "sandbox" {
  e2b {
    api_url = %q
    api_key = %q
  }
%s
}

resource "sandbox_template" "py" {
  backend            = "e2b"
  template_id        = "py"
  image              = %q
  start_cmd          = ""
  image_digest_check = "strict"
  registry_auth = {
    %s
  }
}
`, emu.URL, testE2BAPIKey, providerExtra, image, auth)
}

func ecrEndpoint(aws *awsemu.Emulator) string {
	return fmt.Sprintf("  aws {\n    endpoints {\n      ecr = %q\n    }\n  }", aws.URL)
}

// sawOnly checks that secret reached exactly hosts (none, when empty).
func sawOnly(sink *imagedigesttest.Sink, secret string, hosts ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if saw := sink.HostsThatSaw(secret); !slices.Equal(saw, hosts) {
			return fmt.Errorf("the credential reached %v, want %v", saw, hosts)
		}
		return nil
	}
}

// A basic login goes to the registry that asked for it and to the token service it names, as
// Docker sends it (the registry then sees only the token service's token).
func TestAccImageDigestBasicLoginRouting(t *testing.T) {
	const password = "sink-basic-password"
	sink := imagedigesttest.NewSink(t)
	sink.Registry(sinkRegistry, "ci-bot", password, sinkTokens)
	digest := sink.Push(t, sinkRegistry, "team/app:main")
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	auth := fmt.Sprintf("basic = {\n      username = \"ci-bot\"\n      password = %q\n    }", password)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: sinkFactories(sink),
		Steps: []resource.TestStep{{
			Config: routedTemplate(emu, "", sinkRegistry+"/team/app:main", auth),
			Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "image_digest", digest),
				sawOnly(sink, password, sinkTokens)),
		}},
	})
}

// With aws, the plan mints an ECR token and sends it to its ECR registry alone; the AWS key goes
// only to ECR's API.
func TestAccImageDigestECRTokenRouting(t *testing.T) {
	const token = "sink-ecr-token-password"
	sink := imagedigesttest.NewSink(t)
	sink.Registry(sinkECRHost, "AWS", token, "")
	digest := sink.Push(t, sinkECRHost, "team/app:main")
	aws := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: sinkAWSKeyID, SecretAccessKey: sinkAWSSecret})
	aws.IssueToken("AWS", token)
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	auth := fmt.Sprintf("aws = {\n      access_key_id = %q\n      secret_access_key = %q\n      region = \"eu-west-1\"\n    }", sinkAWSKeyID, sinkAWSSecret)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: sinkFactories(sink),
		Steps: []resource.TestStep{{
			Config: routedTemplate(emu, ecrEndpoint(aws), sinkECRHost+"/team/app:main", auth),
			Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "image_digest", digest),
				sawOnly(sink, token, sinkECRHost), sawOnly(sink, sinkAWSSecret)),
		}},
	})
}

// With gcp, the plan mints a Google access token of the narrowest scope that reads images and
// sends it to Google's registry alone; the key goes only to Google's token endpoint.
func TestAccImageDigestGoogleTokenRouting(t *testing.T) {
	google := googleemu.NewTestServer(t)
	key := google.ServiceAccountJSON(t)
	issued := func(username, password string) bool {
		return username == "oauth2accesstoken" && slices.ContainsFunc(google.Issued(), func(i googleemu.IssuedToken) bool { return i.AccessToken == password })
	}
	sink := imagedigesttest.NewSink(t)
	sink.RegistryFunc(sinkGoogleHost, sinkGoogleHost, issued)
	digest := sink.Push(t, sinkGoogleHost, "team/app:main")
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	auth := fmt.Sprintf("gcp = {\n      service_account_json = %q\n    }", key)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: sinkFactories(sink),
		Steps: []resource.TestStep{{
			Config: routedTemplate(emu, "", sinkGoogleHost+"/team/app:main", auth),
			Check: resource.ComposeTestCheckFunc(resource.TestCheckResourceAttr(resourceName, "image_digest", digest),
				func(s *terraform.State) error {
					tokens := google.Issued()
					if len(tokens) == 0 {
						return fmt.Errorf("no Google token was minted: nothing was checked")
					}
					for _, token := range tokens {
						if token.Scope != googleemu.CloudPlatformReadOnlyScope {
							return fmt.Errorf("a token of scope %q was minted, want %q", token.Scope, googleemu.CloudPlatformReadOnlyScope)
						}
						if err := sawOnly(sink, token.AccessToken, sinkGoogleHost)(s); err != nil {
							return err
						}
					}
					return nil
				}),
		}},
	})
}

// Anything else is refused at plan time, naming the host: an AWS or Google key for an image on
// another registry (no token is even minted), and an ECR token that its registry asks to send to
// another host.
func TestAccImageDigestRefusesOtherRoutes(t *testing.T) {
	const token = "sink-refused-ecr-token"
	sink := imagedigesttest.NewSink(t)
	sink.Registry(sinkECRHost, "AWS", token, sinkTokens)
	sink.Registry(sinkRegistry, "", "", "")
	sink.Push(t, sinkECRHost, "team/app:main")
	sink.Push(t, sinkRegistry, "team/app:main")
	aws := awsemu.NewTestServer(t, awsemu.Options{AccessKeyID: sinkAWSKeyID, SecretAccessKey: sinkAWSSecret})
	aws.IssueToken("AWS", token)
	google := googleemu.NewTestServer(t)
	emu := e2bemu.NewTestServer(t, e2bemu.Options{APIKey: testE2BAPIKey})
	awsAuth := fmt.Sprintf("aws = {\n      access_key_id = %q\n      secret_access_key = %q\n      region = \"eu-west-1\"\n    }", sinkAWSKeyID, sinkAWSSecret)
	gcpAuth := fmt.Sprintf("gcp = {\n      service_account_json = %q\n    }", google.ServiceAccountJSON(t))
	var mintedBefore int
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: sinkFactories(sink),
		Steps: []resource.TestStep{
			{
				Config:      routedTemplate(emu, ecrEndpoint(aws), sinkRegistry+"/team/app:main", awsAuth),
				ExpectError: expectError(`(?s)Invalid registry_auth.aws.*` + words("is an Amazon ECR login, but image is on registry.sink.test").String()),
			},
			{
				Config:      routedTemplate(emu, "", sinkRegistry+"/team/app:main", gcpAuth),
				ExpectError: expectError(`(?s)Invalid registry_auth.gcp.*` + words("is a Google service-account key, but image is on registry.sink.test").String()),
			},
			{
				PreConfig: func() {
					if n := len(aws.Requests()) + len(google.Issued()) + len(sink.Seen()); n != 0 {
						t.Errorf("a configuration refused at plan time still made %d requests (tokens minted, registries asked)", n)
					}
					mintedBefore = len(aws.Requests())
				},
				Config: routedTemplate(emu, ecrEndpoint(aws), sinkECRHost+"/team/app:main", awsAuth),
				ExpectError: expectError(`(?s)Could not resolve the image's digest.*` +
					words("not sending the registry_auth.aws ECR token to auth.sink.test, which "+sinkECRHost+" named as its token service").String()),
			},
		},
	})
	if saw := sink.HostsThatSaw(token); len(saw) != 0 {
		t.Errorf("the ECR token reached %v", saw)
	}
	if len(aws.Requests()) == mintedBefore {
		t.Error("the ECR registry's challenge was never answered: the refusal was not tested")
	}
	if n := len(emu.BuildStarts()); n != 0 {
		t.Errorf("%d builds started from refused configurations", n)
	}
}
