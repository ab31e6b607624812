package main

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

// startE2B serves the E2B API; the provider and E2B's SDKs read E2B_API_URL and E2B_API_KEY. The
// same address serves the sandboxes' envd as E2B's client proxy does (E2B_SANDBOX_URL, which the
// SDKs and sandbox_template_check use): requests with an E2b-Sandbox-Id header go to the sandbox.
func startE2B(o options) (backend, error) {
	key := o.apiKey
	if key == "" {
		key = throwaway("e2b_", 20) // E2B keys are e2b_ and 40 hex digits
	}
	emu := e2bemu.New(e2bemu.Options{APIKey: key, BuildDuration: o.buildDuration, Images: o.images})
	url, err := emu.Start(listenAddr(o, o.e2bPort))
	if err != nil {
		return backend{}, fmt.Errorf("starting the E2B emulator: %w", err)
	}
	return backend{
		name: "e2b",
		settings: []setting{
			{"E2B_API_URL", url},
			{"E2B_API_KEY", key},
			{"E2B_SANDBOX_URL", url},
		},
		close:    emu.Close,
		activity: func() string { return fmt.Sprintf("%d requests", len(emu.Requests())) },
	}, nil
}
