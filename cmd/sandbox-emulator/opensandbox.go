package main

import (
	"fmt"
	"strings"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/opensandboxemu"
)

// startOpenSandbox serves the OpenSandbox lifecycle API and, on the same port, execd. The
// provider and the OpenSandbox SDKs read OPEN_SANDBOX_DOMAIN as host:port (the scheme defaults to
// http) and OPEN_SANDBOX_API_KEY.
func startOpenSandbox(o options) (backend, error) {
	key := o.apiKey
	if key == "" {
		key = throwaway("osb_", 20)
	}
	emu := opensandboxemu.New(opensandboxemu.Options{APIKey: key, Images: o.images})
	if err := emu.Start(listenAddr(o, "0")); err != nil {
		return backend{}, fmt.Errorf("starting the OpenSandbox emulator: %w", err)
	}
	return backend{
		name: "opensandbox",
		settings: []setting{
			{"OPEN_SANDBOX_DOMAIN", strings.TrimPrefix(emu.URL, "http://")},
			{"OPEN_SANDBOX_API_KEY", key},
		},
		close:    emu.Close,
		activity: func() string { return fmt.Sprintf("%d requests", len(emu.Requests())) },
	}, nil
}
