package builders

import (
	"context"
	"errors"
)

// Stage says where a template operation stopped, so a user can tell an auth failure from a build
// failure from a timeout without reading logs.
type Stage string

const (
	StageValidation     Stage = "VALIDATION"      // the spec was rejected before any request
	StageAPIAuth        Stage = "API_AUTH"        // the backend refused our API credentials
	StageRegistryAuth   Stage = "REGISTRY_AUTH"   // turning registry credentials into a login failed
	StageTemplateLookup Stage = "TEMPLATE_LOOKUP" // asking whether the template exists failed
	StageTemplateCreate Stage = "TEMPLATE_CREATE" // registering the template (or builder sandbox) failed
	StageImagePull      Stage = "IMAGE_PULL"      // the backend could not pull the image
	StageTemplateBuild  Stage = "TEMPLATE_BUILD"  // the build itself ran and failed
	StageSnapshot       Stage = "SNAPSHOT"        // taking the snapshot (OpenSandbox) failed
	StageCheck          Stage = "CHECK"           // a sandbox started from a build failed a check's command
	StageTimeout        Stage = "TIMEOUT"         // the deadline passed while waiting
	StageCancelled      Stage = "CANCELLED"       // the operation was interrupted
	StageInternal       Stage = "INTERNAL"        // a bug: a panic in the provider
)

// StageError is an error that knows the stage it happened in and, for builds, the logs so far.
type StageError struct {
	Stage Stage
	Err   error
	Logs  []string
}

func (e *StageError) Error() string { return string(e.Stage) + ": " + e.Err.Error() }
func (e *StageError) Unwrap() error { return e.Err }

// ownStage is an error that belongs to one stage wherever it happens: a refused API key is
// API_AUTH whichever call it answered (apihttp.AuthError).
type ownStage interface {
	error
	OwnStage() Stage
}

// AtStage wraps err with a stage (and optional logs), unless err belongs to a stage of its own.
// It returns nil for a nil err.
func AtStage(stage Stage, err error, logs ...string) error {
	if err == nil {
		return nil
	}
	if own, ok := errors.AsType[ownStage](err); ok {
		stage = own.OwnStage()
	}
	return &StageError{Stage: stage, Err: err, Logs: logs}
}

// AtStageIfBare wraps err with stage unless it already carries one.
func AtStageIfBare(stage Stage, err error) error {
	if err == nil || StageOf(err, "") != "" {
		return err
	}
	return AtStage(stage, err)
}

// StageOf tells the stage of err: a context deadline or cancellation wins over the stage the error
// was wrapped with, because that is what the user has to act on.
func StageOf(err error, fallback Stage) Stage {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return StageTimeout
	case errors.Is(err, context.Canceled):
		return StageCancelled
	}
	var se *StageError
	if errors.As(err, &se) {
		return se.Stage
	}
	if own, ok := errors.AsType[ownStage](err); ok {
		return own.OwnStage()
	}
	return fallback
}

// LogsOf returns the build logs carried by err, if any.
func LogsOf(err error) []string {
	var se *StageError
	if errors.As(err, &se) {
		return se.Logs
	}
	return nil
}

// DetailOf is the message of err without its stage prefix (the stage is reported on its own).
func DetailOf(err error) string {
	var se *StageError
	if errors.As(err, &se) && se == err {
		return se.Err.Error()
	}
	return err.Error()
}
