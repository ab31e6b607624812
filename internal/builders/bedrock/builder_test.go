package bedrock

import (
	"errors"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/bedrockagentcorecontrol/types"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/buildertest"
	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/awsemu"
)

func TestIsUsable(t *testing.T) {
	tests := []struct {
		name       string
		seed       string // status; empty: the interpreter does not exist
		deny       bool
		wrongKeys  bool
		wantUsable bool
		wantStage  builders.Stage
		wantErr    []string
	}{
		{name: "READY", seed: "READY", wantUsable: true},
		{name: "CREATING", seed: "CREATING"},
		{name: "CREATE_FAILED", seed: "CREATE_FAILED"},
		{name: "DELETING", seed: "DELETING"},
		{name: "missing"},
		{name: "access denied", seed: "READY", deny: true, wantStage: builders.StageAPIAuth,
			wantErr: []string{"AccessDeniedException", "bedrock-agentcore:GetCodeInterpreter", customID, "us-east-1"}},
		{name: "unrecognized client", seed: "READY", wrongKeys: true, wantStage: builders.StageAPIAuth,
			wantErr: []string{"UnrecognizedClientException", "security token included in the request is invalid"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, e := newEmulatedBuilder(t)
			if tt.seed != "" {
				e.SeedCodeInterpreter(customID, tt.seed)
			}
			if tt.deny {
				e.DenyAccess("GetCodeInterpreter")
			}
			if tt.wrongKeys {
				e.SetCredentials("AKIASOMEONEELSE00001", "other")
			}
			usable, err := b.IsUsable(t.Context(), customID)
			if tt.wantStage != "" {
				buildertest.AssertStage(t, err, tt.wantStage, tt.wantErr...)
				if strings.Contains(err.Error(), envSecret) {
					t.Errorf("error leaks the secret key: %v", err)
				}
				return
			}
			if err != nil || usable != tt.wantUsable {
				t.Fatalf("IsUsable = %v, %v, want %v", usable, err, tt.wantUsable)
			}
			if reqs := e.Requests(); len(reqs) != 1 || reqs[0].Operation != "GetCodeInterpreter" || reqs[0].AccessKeyID != envKeyID {
				t.Errorf("recorded %+v", reqs)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	e.SeedFailedCodeInterpreter(customID, "CREATE_FAILED", "CodeInterpreter role validation failed")
	ci, err := b.Lookup(t.Context(), customID)
	if err != nil {
		t.Fatal(err)
	}
	want := CodeInterpreter{ID: customID, Name: "analysis", Status: types.CodeInterpreterStatusCreateFailed, FailureReason: "CodeInterpreter role validation failed",
		ARN: "arn:aws:bedrock-agentcore:us-east-1:" + awsemu.DefaultAccountID + ":code-interpreter/" + customID}
	if ci != want || ci.Ready() {
		t.Errorf("Lookup = %+v, want %+v", ci, want)
	}
	_, err = b.Lookup(t.Context(), "missing-a1b2c3d4e5")
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("missing interpreter: want ErrNotFound, got %v", err)
	}
	buildertest.AssertStage(t, err, builders.StageTemplateLookup, "missing-a1b2c3d4e5", "us-east-1")
}

func TestBuildIsUnsupported(t *testing.T) {
	tests := []struct {
		name, seed, reason string
		wantNote           string
	}{
		{"missing", "", "", `"analysis-a1b2c3d4e5" does not exist in us-east-1`},
		{"creating", "CREATING", "", `"analysis-a1b2c3d4e5" is CREATING in us-east-1`},
		{"failed", "CREATE_FAILED", "role validation failed", "is CREATE_FAILED in us-east-1: role validation failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, e := newEmulatedBuilder(t)
			if tt.seed != "" {
				e.SeedFailedCodeInterpreter(customID, tt.seed, tt.reason)
			}
			got, err := b.Build(t.Context(), builders.TemplateSpec{TemplateID: customID}, builders.Observer{})
			if err != nil || got.Status != builders.StatusUnsupported || got.TemplateRef != nil || got.Stage != builders.StageTemplateBuild {
				t.Fatalf("Build = %+v, %v: want UNSUPPORTED with a nil ref and error", got, err)
			}
			for _, want := range []string{"no custom templates", "template_id", tt.wantNote} {
				if !strings.Contains(got.Detail, want) {
					t.Errorf("detail %q does not contain %q", got.Detail, want)
				}
			}
		})
	}
}

func TestEnsure(t *testing.T) {
	tests := []struct {
		name       string
		seed       string
		force      bool
		wantStatus builders.TemplateBuildStatus
	}{
		{"READY interpreter: nothing to do", "READY", false, builders.StatusSkipped},
		{"CREATING interpreter", "CREATING", false, builders.StatusUnsupported},
		{"missing interpreter", "", false, builders.StatusUnsupported},
		{"forced on a READY interpreter", "READY", true, builders.StatusUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, e := newEmulatedBuilder(t)
			if tt.seed != "" {
				e.SeedCodeInterpreter(customID, tt.seed)
			}
			got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: customID, ForceRebuild: tt.force}, builders.Observer{})
			if got.Status != tt.wantStatus {
				t.Fatalf("Ensure = %+v, want %s", got, tt.wantStatus)
			}
			wantRef := tt.wantStatus == builders.StatusSkipped
			if (got.TemplateRef != nil) != wantRef {
				t.Fatalf("template_ref = %+v for %s", got.TemplateRef, got.Status)
			}
			if wantRef && *got.TemplateRef != (builders.TemplateRef{Provider: Name, Value: customID}) {
				t.Errorf("template_ref = %+v", *got.TemplateRef)
			}
		})
	}
}

// The built-in interpreter is READY by definition: it is SKIPPED even where GetCodeInterpreter
// would answer 404 for it (the emulator does, as it was never seeded), and no request is sent.
func TestEnsureSystemInterpreterNeedsNoLookup(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: SystemCodeInterpreterID}, builders.Observer{})
	want := builders.TemplateRef{Provider: Name, Value: SystemCodeInterpreterID}
	if got.Status != builders.StatusSkipped || got.TemplateRef == nil || *got.TemplateRef != want {
		t.Fatalf("Ensure = %+v, want SKIPPED with ref %+v", got, want)
	}
	ci, err := b.Lookup(t.Context(), SystemCodeInterpreterID)
	if err != nil || !ci.Ready() || ci.ARN != "arn:aws:bedrock-agentcore:us-east-1:aws:code-interpreter/aws.codeinterpreter.v1" {
		t.Errorf("Lookup = %+v, %v", ci, err)
	}
	if reqs := e.Requests(); len(reqs) != 0 {
		t.Errorf("the built-in interpreter needs no request, sent %+v", reqs)
	}
}

func TestEnsureAccessDeniedFailsAtAPIAuth(t *testing.T) {
	b, e := newEmulatedBuilder(t)
	e.DenyAccess("GetCodeInterpreter")
	got := builders.Ensure(t.Context(), b, builders.TemplateSpec{TemplateID: customID}, builders.Observer{})
	t.Logf("result: %+v", got)
	if got.Status != builders.StatusFailed || got.Stage != builders.StageAPIAuth || !strings.Contains(got.Detail, "AccessDeniedException") {
		t.Errorf("Ensure = %+v, want FAILED at API_AUTH", got)
	}
}

func TestBuilderShape(t *testing.T) {
	b, _ := newEmulatedBuilder(t)
	if b.Backend().Name != Name || b.Backend().Builds() || b.Region() != "us-east-1" {
		t.Errorf("backend %s, builds %v, region %s", b.Backend().Name, b.Backend().Builds(), b.Region())
	}
	if _, ok := any(b).(builders.Deleter); ok {
		t.Error("code interpreters are not ours to delete: the builder must not be a Deleter")
	}
}
