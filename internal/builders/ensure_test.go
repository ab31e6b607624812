package builders

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
)

// fakeBuilder is an in-memory backend whose behaviour each test scripts.
type fakeBuilder struct {
	mu        sync.Mutex
	usable    map[string]bool
	builds    int
	buildFn   func(ctx context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error)
	usableErr error
	lookups   int
}

func newFake(buildFn func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error)) *fakeBuilder {
	return &fakeBuilder{usable: map[string]bool{}, buildFn: buildFn}
}

// fakeBackend is the fake's descriptor: a backend that builds from an image.
var fakeBackend = Backend{Name: "fake", Title: "Fake", TemplateID: NameRule, Sources: []string{SourceImage}}

func (f *fakeBuilder) Backend() *Backend { return &fakeBackend }

func (f *fakeBuilder) Build(ctx context.Context, spec TemplateSpec, obs Observer) (TemplateBuildResult, error) {
	f.mu.Lock()
	f.builds++
	f.mu.Unlock()
	obs.Created(TemplateRef{Provider: fakeBackend.Name, Value: spec.TemplateID})
	return f.buildFn(ctx, f, spec)
}

func (f *fakeBuilder) IsUsable(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups++
	return f.usable[id], f.usableErr
}

func (f *fakeBuilder) markUsable(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.usable[id] = true
}

func buildsOK(_ context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error) {
	f.markUsable(spec.TemplateID)
	return Succeeded(fakeBackend.Name, spec.TemplateID, []string{"built"}), nil
}

var pySpec = TemplateSpec{TemplateID: "py", Image: "python:3.12"}

func TestEnsureBranches(t *testing.T) {
	tests := []struct {
		name       string
		spec       TemplateSpec
		preUsable  bool
		usableErr  error
		build      func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error)
		wantStatus TemplateBuildStatus
		wantStage  Stage
		wantBuilds int
		wantDetail string
	}{
		// Nothing proves it was built from these inputs (the fake records none): built, not adopted.
		{name: "usable, inputs unknown: builds", preUsable: true, spec: pySpec, build: buildsOK,
			wantStatus: StatusSuccess, wantBuilds: 1},
		{name: "not usable: builds", spec: pySpec, build: buildsOK, wantStatus: StatusSuccess, wantBuilds: 1},
		{name: "forced: builds although usable", preUsable: true, spec: TemplateSpec{TemplateID: "py", Image: "python", ForceRebuild: true},
			build: buildsOK, wantStatus: StatusSuccess, wantBuilds: 1},
		{name: "build error: FAILED with its stage", spec: pySpec,
			build: func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
				return TemplateBuildResult{}, AtStage(StageImagePull, errors.New("pull access denied"), "step 1", "step 2")
			}, wantStatus: StatusFailed, wantStage: StageImagePull, wantBuilds: 1, wantDetail: "pull access denied"},
		{name: "bare build error: TEMPLATE_BUILD", spec: pySpec,
			build: func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
				return TemplateBuildResult{}, errors.New("boom")
			}, wantStatus: StatusFailed, wantStage: StageTemplateBuild, wantBuilds: 1, wantDetail: "boom"},
		{name: "failed result without error is FAILED", spec: pySpec,
			build: func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
				return TemplateBuildResult{Status: StatusFailed, Stage: StageSnapshot, Detail: "snapshot failed"}, nil
			}, wantStatus: StatusFailed, wantStage: StageSnapshot, wantBuilds: 1, wantDetail: "snapshot failed"},
		{name: "failed build but template resolves: a concurrent builder won", spec: pySpec,
			build: func(_ context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error) {
				f.markUsable(spec.TemplateID) // someone else finished first
				return TemplateBuildResult{}, errors.New("alias already taken")
			}, wantStatus: StatusSkipped, wantBuilds: 1, wantDetail: "concurrent builder won"},
		{name: "forced failed build is not rescued", spec: TemplateSpec{TemplateID: "py", Image: "python", ForceRebuild: true},
			build: func(_ context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error) {
				f.markUsable(spec.TemplateID)
				return TemplateBuildResult{}, errors.New("forced build failed")
			}, wantStatus: StatusFailed, wantStage: StageTemplateBuild, wantBuilds: 1},
		{name: "build panics: FAILED at INTERNAL", spec: pySpec,
			build:      func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) { panic("nil map") },
			wantStatus: StatusFailed, wantStage: StageInternal, wantBuilds: 1, wantDetail: "panic in builder"},
		{name: "lookup error: FAILED at TEMPLATE_LOOKUP", spec: pySpec, usableErr: errors.New("connection refused"), build: buildsOK,
			wantStatus: StatusFailed, wantStage: StageTemplateLookup, wantBuilds: 0, wantDetail: "connection refused"},
		{name: "lookup auth error keeps its stage", spec: pySpec, usableErr: AtStage(StageAPIAuth, errors.New("401")), build: buildsOK,
			wantStatus: StatusFailed, wantStage: StageAPIAuth, wantBuilds: 0},
		{name: "invalid spec: FAILED at VALIDATION, nothing called", spec: TemplateSpec{TemplateID: "Bad ID"}, build: buildsOK,
			wantStatus: StatusFailed, wantStage: StageValidation, wantBuilds: 0, wantDetail: "template_id"},
		{name: "unsupported backend", spec: pySpec,
			build: func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
				return Unsupported("no templates here"), nil
			}, wantStatus: StatusUnsupported, wantStage: StageTemplateBuild, wantBuilds: 1, wantDetail: "no templates here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(tt.build)
			f.usable["py"] = tt.preUsable
			f.usableErr = tt.usableErr
			got := Ensure(context.Background(), f, tt.spec, Observer{})
			if got.Status != tt.wantStatus || got.Stage != tt.wantStage || f.builds != tt.wantBuilds {
				t.Fatalf("Ensure = %s/%s after %d builds (%q), want %s/%s after %d",
					got.Status, got.Stage, f.builds, got.Detail, tt.wantStatus, tt.wantStage, tt.wantBuilds)
			}
			if !strings.Contains(got.Detail, tt.wantDetail) {
				t.Errorf("detail %q does not contain %q", got.Detail, tt.wantDetail)
			}
			hasRef := got.Status == StatusSuccess || got.Status == StatusSkipped
			if hasRef != (got.TemplateRef != nil) {
				t.Fatalf("template_ref = %v for status %s", got.TemplateRef, got.Status)
			}
			if hasRef && *got.TemplateRef != (TemplateRef{Provider: fakeBackend.Name, Value: "py"}) {
				t.Errorf("template_ref = %+v, want {e2b py}", *got.TemplateRef)
			}
			if strings.HasPrefix(got.Detail, string(got.Stage)+":") && got.Stage != "" {
				t.Errorf("detail repeats the stage: %q", got.Detail)
			}
		})
	}
}

func TestEnsureKeepsBuildLogsOnFailure(t *testing.T) {
	f := newFake(func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
		return TemplateBuildResult{}, AtStage(StageTemplateBuild, errors.New("exit 1"), "pip install numpy", "ERROR: no space")
	})
	got := Ensure(context.Background(), f, pySpec, Observer{})
	if strings.Join(got.Logs, "|") != "pip install numpy|ERROR: no space" {
		t.Errorf("logs = %q, want the build's logs", got.Logs)
	}
}

// TestEnsureConcurrentWinner runs two Ensure calls at once against one backend that, like E2B, lets
// only one build of a template run: both pass the fast path, the loser's build fails, and the loser then
// finds the winner's template.
func TestEnsureConcurrentWinner(t *testing.T) {
	var building sync.Mutex
	loserInBuild, winnerDone := make(chan struct{}), make(chan struct{})
	f := newFake(func(_ context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error) {
		if !building.TryLock() {
			close(loserInBuild)
			<-winnerDone
			return TemplateBuildResult{}, errors.New("conflict: a build of this template is in progress")
		}
		defer building.Unlock()
		<-loserInBuild // the loser passed the fast path too
		f.markUsable(spec.TemplateID)
		close(winnerDone)
		return Succeeded(fakeBackend.Name, spec.TemplateID, nil), nil
	})
	results := make(chan TemplateBuildResult, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); results <- Ensure(context.Background(), f, pySpec, Observer{}) }()
	}
	wg.Wait()
	close(results)
	counts := map[TemplateBuildStatus]int{}
	for r := range results {
		counts[r.Status]++
		if r.TemplateRef == nil || r.TemplateRef.Value != "py" {
			t.Errorf("both callers must get the template ref, got %+v", r)
		}
	}
	if counts[StatusSuccess] != 1 || counts[StatusSkipped] != 1 || f.builds != 2 {
		t.Errorf("statuses = %v after %d builds, want one SUCCESS and one SKIPPED from two builds", counts, f.builds)
	}
}

func TestEnsureHonoursCancellation(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cancel func(context.Context) (context.Context, context.CancelFunc)
		want   Stage
	}{
		{"deadline", func(ctx context.Context) (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 0) }, StageTimeout},
		{"cancel", func(ctx context.Context) (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(ctx)
			cancel()
			return ctx, cancel
		}, StageCancelled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(func(ctx context.Context, f *fakeBuilder, spec TemplateSpec) (TemplateBuildResult, error) {
				<-ctx.Done()
				f.markUsable(spec.TemplateID) // must not be rescued: the caller gave up
				return TemplateBuildResult{}, AtStage(StageTemplateBuild, ctx.Err())
			})
			ctx, cancel := tt.cancel(context.Background())
			defer cancel()
			got := Ensure(ctx, f, pySpec, Observer{})
			if got.Status != StatusFailed || got.Stage != tt.want {
				t.Errorf("Ensure = %s/%s (%s), want FAILED/%s", got.Status, got.Stage, got.Detail, tt.want)
			}
		})
	}
}

func TestRebuildAlwaysBuilds(t *testing.T) {
	f := newFake(buildsOK)
	f.usable["py"] = true
	if got := Rebuild(context.Background(), f, pySpec, Observer{}); got.Status != StatusSuccess || f.builds != 1 || f.lookups != 0 {
		t.Errorf("Rebuild = %s after %d builds and %d lookups, want SUCCESS, 1 build, no lookup", got.Status, f.builds, f.lookups)
	}
	panicky := newFake(func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) { panic("x") })
	if got := Rebuild(context.Background(), panicky, pySpec, Observer{}); got.Stage != StageInternal {
		t.Errorf("a panic in Rebuild must be FAILED/INTERNAL, got %s/%s", got.Status, got.Stage)
	}
}

func TestEnsureTellsTheObserverWhenTheTemplateExists(t *testing.T) {
	var created []TemplateRef
	obs := Observer{OnCreated: func(r TemplateRef) { created = append(created, r) }}
	Ensure(context.Background(), newFake(buildsOK), pySpec, obs)
	if len(created) != 1 || created[0] != (TemplateRef{Provider: fakeBackend.Name, Value: "py"}) {
		t.Errorf("created = %v, want exactly the built template", created)
	}
	Observer{}.Created(TemplateRef{}) // a zero Observer ignores events
	Observer{}.Progress("line")
}

// checkingFake is a fakeBuilder that records inputs, like E2B: verdicts[0] is what BuiltFrom
// answers before the build, verdicts[1] after it.
type checkingFake struct {
	*fakeBuilder
	verdicts []InputsVerdict
	asked    int
}

func (c *checkingFake) BuiltFrom(ctx context.Context, spec TemplateSpec) (InputsVerdict, string, error) {
	c.asked++
	if usable, err := c.IsUsable(ctx, spec.TemplateID); !usable || err != nil {
		return InputsDiffer, "", err // nothing serves it: BuiltFrom tells usability too
	}
	return c.verdicts[min(c.asked-1, len(c.verdicts)-1)], "build-" + string(rune('0'+c.asked)), nil
}

// TestEnsureNeedsProofOfAConcurrentWinner: a template that was usable all along with an older build
// of other inputs still serves that build after ours failed: FAILED, not SKIPPED. Only a usable
// build of these inputs is a winner; a rebuild of other inputs says so in a warning.
func TestEnsureNeedsProofOfAConcurrentWinner(t *testing.T) {
	failing := func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error) {
		return TemplateBuildResult{}, errors.New("pip install exited with code 1")
	}
	for _, tt := range []struct {
		name     string
		build    func(context.Context, *fakeBuilder, TemplateSpec) (TemplateBuildResult, error)
		after    InputsVerdict
		want     TemplateBuildStatus
		warnings int
	}{
		{"older build of other inputs still served", failing, InputsDiffer, StatusFailed, 0},
		{"a build of unknown inputs, usable before ours failed", failing, InputsUnknown, StatusFailed, 0},
		{"a build of these inputs now served", failing, InputsMatch, StatusSkipped, 0},
		{"rebuilt from these inputs", buildsOK, InputsMatch, StatusSuccess, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &checkingFake{fakeBuilder: newFake(tt.build), verdicts: []InputsVerdict{InputsDiffer, tt.after}}
			f.usable["py"] = true
			got := Ensure(context.Background(), f, pySpec, Observer{})
			if got.Status != tt.want || len(got.Warnings) != tt.warnings || f.builds != 1 {
				t.Errorf("Ensure = %s %q, warnings %q after %d builds; want %s with %d warnings after 1",
					got.Status, got.Detail, got.Warnings, f.builds, tt.want, tt.warnings)
			}
		})
	}
}

// TestEnsureAdoptsOnlyWhatItCanVouchFor: a usable template that records no inputs to compare (another
// tool's, or a backend that records none) is rebuilt with a warning, since adopting it would record
// inputs sandboxes may not start from; a backend that builds nothing refers to what exists, as found.
func TestEnsureAdoptsOnlyWhatItCanVouchFor(t *testing.T) {
	unrecorded := &checkingFake{fakeBuilder: newFake(buildsOK), verdicts: []InputsVerdict{InputsUnknown, InputsMatch}}
	unrecorded.usable["py"] = true
	if got := Ensure(context.Background(), unrecorded, pySpec, Observer{}); got.Status != StatusSuccess || unrecorded.builds != 1 ||
		len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], "no record of the inputs") {
		t.Errorf("Ensure of a template without recorded inputs = %s, %d builds, warnings %q; want SUCCESS from a build, saying why",
			got.Status, unrecorded.builds, got.Warnings)
	}
	referrer := &referringFake{newFake(buildsOK)}
	referrer.usable["py"] = true
	if got := Ensure(context.Background(), referrer, TemplateSpec{TemplateID: "py"}, Observer{}); got.Status != StatusSkipped || referrer.builds != 0 {
		t.Errorf("Ensure on a backend that builds nothing = %s after %d builds, want SKIPPED: it refers to what exists", got.Status, referrer.builds)
	}
}

// referringFake is a backend that builds nothing, like Bedrock: it only refers to existing templates.
type referringFake struct{ *fakeBuilder }

var referringBackend = Backend{Name: "referring", Title: "Referring", TemplateID: NameRule}

func (referringFake) Backend() *Backend { return &referringBackend }
