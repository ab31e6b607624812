package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcore"
	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol"
	agentcoretypes "github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"
	"github.com/aws/aws-sdk-go-v2/service/ecr"
	"golang.org/x/oauth2/google"
)

// emulator is one run() serving in the background.
type emulator struct {
	names    []string          // the settings' names, in printed order
	settings map[string]string // name -> value
	stop     func() error      // cancels run and returns what it returned
}

// startRun runs the command with args until the test ends and reads what it prints up to the ready line.
func startRun(t *testing.T, args ...string) *emulator {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, args, w, io.Discard)
		_ = w.CloseWithError(err)
		done <- err
	}()
	var once bool
	var runErr error
	stop := func() error {
		if !once {
			once = true
			cancel()
			runErr = <-done
		}
		return runErr
	}
	t.Cleanup(func() { _ = stop() })

	e := &emulator{settings: map[string]string{}, stop: stop}
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		line := lines.Text()
		if line == readyLine {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return e
		}
		if strings.HasPrefix(line, "# ") {
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("line %q is neither NAME=value nor a # comment", line)
		}
		e.names = append(e.names, name)
		e.settings[name] = value
	}
	t.Fatalf("output ended before %q: %v", readyLine, lines.Err())
	return nil
}

// shellSafe values can be sourced by a shell unquoted.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:@+-]+$`)

// TestRunPrintsEverySetting: one line per setting the provider reads, E2B_API_URL first (scripts
// match on it), each value safe to source unquoted, every URL on 127.0.0.1.
func TestRunPrintsEverySetting(t *testing.T) {
	e := startRun(t)
	want := []string{
		"E2B_API_URL", "E2B_API_KEY", "E2B_SANDBOX_URL",
		"OPEN_SANDBOX_DOMAIN", "OPEN_SANDBOX_API_KEY",
		"DAYTONA_API_URL", "DAYTONA_API_KEY", "DAYTONA_TARGET",
		"AWS_ENDPOINT_URL_ECR", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL", "AWS_ENDPOINT_URL_BEDROCK_AGENTCORE",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_REGION",
		"GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_TOKEN_URL",
	}
	for _, name := range want {
		if !slices.Contains(e.names, name) {
			t.Errorf("no %s= line in %v", name, e.names)
		}
	}
	if len(e.names) == 0 || e.names[0] != "E2B_API_URL" {
		t.Errorf("first setting = %v, want E2B_API_URL", e.names)
	}
	for name, value := range e.settings {
		if !shellSafe.MatchString(value) {
			t.Errorf("%s=%q cannot be sourced unquoted", name, value)
		}
		if strings.Contains(value, "://") && !strings.HasPrefix(value, "http://127.0.0.1:") {
			t.Errorf("%s=%s is not on 127.0.0.1", name, value)
		}
	}
	if !strings.HasPrefix(e.settings["OPEN_SANDBOX_DOMAIN"], "127.0.0.1:") {
		t.Errorf("OPEN_SANDBOX_DOMAIN=%s, want 127.0.0.1:PORT as the SDKs take it", e.settings["OPEN_SANDBOX_DOMAIN"])
	}
	if e.settings["AWS_REGION"] != "us-east-1" {
		t.Errorf("AWS_REGION=%s, want the default us-east-1", e.settings["AWS_REGION"])
	}
	// Each run makes its own throwaway credentials.
	if other := startRun(t); other.settings["E2B_API_KEY"] == e.settings["E2B_API_KEY"] ||
		other.settings["AWS_SECRET_ACCESS_KEY"] == e.settings["AWS_SECRET_ACCESS_KEY"] {
		t.Error("two runs printed the same credentials")
	}
}

// TestEachBackendAnswersWithThePrintedSettings: each URL serves its API and accepts exactly the
// credentials printed beside it.
func TestEachBackendAnswersWithThePrintedSettings(t *testing.T) {
	e := startRun(t)
	s := e.settings

	for key, want := range map[string]int{s["E2B_API_KEY"]: 200, "e2b_wrong": 401} {
		if got, err := get(t, s["E2B_API_URL"]+"/templates", map[string]string{"X-API-Key": key}); err != nil || got != want {
			t.Errorf("E2B GET /templates with key %q = %d, %v; want %d", key, got, err, want)
		}
	}

	for key, want := range map[string]int{s["OPEN_SANDBOX_API_KEY"]: 200, "osb_wrong": 401} {
		url := "http://" + s["OPEN_SANDBOX_DOMAIN"] + "/v1/sandboxes"
		if got, err := get(t, url, map[string]string{"OPEN-SANDBOX-API-KEY": key}); err != nil || got != want {
			t.Errorf("OpenSandbox GET /v1/sandboxes with key %q = %d, %v; want %d", key, got, err, want)
		}
	}

	for key, want := range map[string]int{s["DAYTONA_API_KEY"]: 200, "dtn_wrong": 401} {
		if got, err := get(t, s["DAYTONA_API_URL"]+"/snapshots", map[string]string{"Authorization": "Bearer " + key}); err != nil || got != want {
			t.Errorf("Daytona GET /snapshots with key %q = %d, %v; want %d", key, got, err, want)
		}
	}

	// The AWS SDK signs with the printed pair; the emulator verifies the signature.
	signed := awsConfig(s["AWS_ACCESS_KEY_ID"], s["AWS_SECRET_ACCESS_KEY"], s["AWS_REGION"])
	ecrClient := ecr.NewFromConfig(signed, func(o *ecr.Options) { o.BaseEndpoint = aws.String(s["AWS_ENDPOINT_URL_ECR"]) })
	if out, err := ecrClient.GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err != nil || len(out.AuthorizationData) == 0 {
		t.Errorf("ECR GetAuthorizationToken with the printed credentials = %v, %v", out, err)
	}
	forged := ecr.NewFromConfig(awsConfig(s["AWS_ACCESS_KEY_ID"], "not-the-secret", s["AWS_REGION"]),
		func(o *ecr.Options) { o.BaseEndpoint = aws.String(s["AWS_ENDPOINT_URL_ECR"]) })
	if _, err := forged.GetAuthorizationToken(t.Context(), &ecr.GetAuthorizationTokenInput{}); err == nil {
		t.Error("ECR accepted a signature made with another secret")
	}
	agentcore := bedrockagentcorecontrol.NewFromConfig(signed, func(o *bedrockagentcorecontrol.Options) {
		o.BaseEndpoint = aws.String(s["AWS_ENDPOINT_URL_BEDROCK_AGENTCORE_CONTROL"])
	})
	var notFound *agentcoretypes.ResourceNotFoundException
	_, err := agentcore.GetCodeInterpreter(t.Context(), &bedrockagentcorecontrol.GetCodeInterpreterInput{CodeInterpreterId: aws.String("nothing_here-0123456789")})
	if !errors.As(err, &notFound) { // authenticated and routed: the interpreter is simply not there
		t.Errorf("AgentCore GetCodeInterpreter of an unknown id = %v, want ResourceNotFoundException", err)
	}
	// The data plane answers on its own URL: a session of the built-in interpreter runs a command.
	data := bedrockagentcore.NewFromConfig(signed, func(o *bedrockagentcore.Options) {
		o.BaseEndpoint = aws.String(s["AWS_ENDPOINT_URL_BEDROCK_AGENTCORE"])
	})
	started, err := data.StartCodeInterpreterSession(t.Context(), &bedrockagentcore.StartCodeInterpreterSessionInput{
		CodeInterpreterIdentifier: aws.String("aws.codeinterpreter.v1")})
	if err != nil {
		t.Fatalf("AgentCore StartCodeInterpreterSession with the printed settings: %v", err)
	}
	if _, err := data.StopCodeInterpreterSession(t.Context(), &bedrockagentcore.StopCodeInterpreterSessionInput{
		CodeInterpreterIdentifier: aws.String("aws.codeinterpreter.v1"), SessionId: started.SessionId}); err != nil {
		t.Errorf("AgentCore StopCodeInterpreterSession: %v", err)
	}

	// Google's own library gets a token with the key file, from the token_uri it names.
	key, err := os.ReadFile(s["GOOGLE_APPLICATION_CREDENTIALS"])
	if err != nil {
		t.Fatal(err)
	}
	var uri struct {
		TokenURI string `json:"token_uri"`
	}
	if err := json.Unmarshal(key, &uri); err != nil || uri.TokenURI != s["GOOGLE_TOKEN_URL"] {
		t.Errorf("the key file's token_uri = %q (%v), want GOOGLE_TOKEN_URL=%s", uri.TokenURI, err, s["GOOGLE_TOKEN_URL"])
	}
	creds, err := google.CredentialsFromJSONWithType(t.Context(), key, google.ServiceAccount, "https://www.googleapis.com/auth/cloud-platform")
	if err != nil {
		t.Fatal(err)
	}
	if token, err := creds.TokenSource.Token(); err != nil || token.AccessToken == "" {
		t.Errorf("a token with the printed key file = %v, %v", token, err)
	}
}

// awsConfig is an SDK configuration with only these credentials: nothing from the environment or ~/.aws.
func awsConfig(keyID, secret, region string) aws.Config {
	return aws.Config{
		Region:      region,
		Credentials: credentials.NewStaticCredentialsProvider(keyID, secret, ""),
		Retryer:     func() aws.Retryer { return aws.NopRetryer{} },
	}
}

// TestRunStopsCleanly: cancelling returns nil and every port stops answering.
func TestRunStopsCleanly(t *testing.T) {
	e := startRun(t)
	urls := []string{e.settings["E2B_API_URL"], "http://" + e.settings["OPEN_SANDBOX_DOMAIN"], e.settings["DAYTONA_API_URL"], e.settings["AWS_ENDPOINT_URL_ECR"],
		e.settings["GOOGLE_TOKEN_URL"]}
	for _, u := range urls {
		if _, err := get(t, u+"/", nil); err != nil {
			t.Fatalf("%s before stopping: %v", u, err)
		}
	}
	if err := e.stop(); err != nil {
		t.Fatalf("run after cancel = %v, want nil", err)
	}
	for _, u := range urls {
		if _, err := get(t, u+"/", nil); err == nil {
			t.Errorf("%s still answers after the emulator stopped", u)
		}
	}
	// The key is good only while this emulator ran: its temporary file goes with it.
	if _, err := os.Stat(e.settings["GOOGLE_APPLICATION_CREDENTIALS"]); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the key file after stopping: %v, want it removed", err)
	}
}

// TestGCPKeyFileIsWrittenWhereAsked: -gcp-key-file names the file, printed as an absolute path and
// kept after the emulator stops.
func TestGCPKeyFileIsWrittenWhereAsked(t *testing.T) {
	t.Chdir(t.TempDir())
	e := startRun(t, "-gcp-key-file", "key.json")
	path := e.settings["GOOGLE_APPLICATION_CREDENTIALS"]
	if !filepath.IsAbs(path) || filepath.Base(path) != "key.json" {
		t.Errorf("GOOGLE_APPLICATION_CREDENTIALS=%s, want the absolute path of key.json", path)
	}
	if err := e.stop(); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the key file after stopping: %v, %v; want it kept, readable by its owner only", info, err)
	}
}

func TestRunRejectsBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-build-duration", "soon"},
		{"-addr", "0.0.0.0"},     // beyond this machine
		{"-addr", "192.0.2.1:0"}, // likewise, with a port
		{"-addr", "example.com"}, // a name, which may resolve anywhere
		{"-aws-region", ""},
		{"stray"},
		{"-gcp-key-file", "/nonexistent/key.json"}, // fails after the other backends started: they stop again
	} {
		if err := run(t.Context(), args, io.Discard, io.Discard); err == nil {
			t.Errorf("run %q = nil, want an error", args)
		}
	}
}

// TestAddrPortIsE2Bs: a port in -addr is E2B's, as when E2B was the only backend.
func TestAddrPortIsE2Bs(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port, freed again for the emulator
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	if got := startRun(t, "-addr", addr).settings["E2B_API_URL"]; got != "http://"+addr {
		t.Errorf("E2B_API_URL=%s, want http://%s", got, addr)
	}
}

func TestHelpPrintsUsageAndServesNothing(t *testing.T) {
	var stdout, stderr strings.Builder
	if err := run(t.Context(), []string{"-help"}, &stdout, &stderr); err != nil {
		t.Fatalf("run -help = %v, want nil", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("-help printed settings: %q", stdout.String())
	}
	for _, want := range []string{"-addr", "-api-key", "-build-duration", "$E2B_API_URL/_emulator/"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("-help does not mention %q:\n%s", want, stderr.String())
		}
	}
}

// TestEveryDocumentedControlAnswers: each control path -help documents exists on the backend it
// names and accepts the example it shows, so the help cannot drift from the emulators.
func TestEveryDocumentedControlAnswers(t *testing.T) {
	e := startRun(t)
	for _, b := range controls {
		for _, c := range b.endpoints {
			url := b.controlURL(e.settings, c)
			req, err := http.NewRequestWithContext(t.Context(), c.method, url, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, url, err)
			}
			answer, _ := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode/100 != 2 {
				t.Errorf("%s: %s %s %s = %d %s, want 2xx", b.backend, c.method, url, c.body, resp.StatusCode, answer)
			}
		}
	}
}

// get sends a GET with headers and returns the status.
func get(t *testing.T, url string, header map[string]string) (int, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	_ = resp.Body.Close()
	return resp.StatusCode, nil
}
