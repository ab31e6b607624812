package main

import (
	"fmt"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/daytonaemu"
)

// startDaytona serves the Daytona API (under /api, as DAYTONA_API_URL names it), its toolbox proxy
// and its build-log proxy. The provider and Daytona's SDKs read DAYTONA_API_URL, DAYTONA_API_KEY
// and DAYTONA_TARGET (the region snapshots and sandboxes go to).
func startDaytona(o options) (backend, error) {
	key := o.apiKey
	if key == "" {
		key = throwaway("dtn_", 20)
	}
	emu := daytonaemu.New(daytonaemu.Options{APIKey: key, Images: o.images})
	if err := emu.Start(listenAddr(o, "0")); err != nil {
		return backend{}, fmt.Errorf("starting the Daytona emulator: %w", err)
	}
	return backend{
		name: "daytona",
		settings: []setting{
			{"DAYTONA_API_URL", emu.APIURL()},
			{"DAYTONA_API_KEY", key},
			{"DAYTONA_TARGET", "us"},
		},
		close:    emu.Close,
		activity: func() string { return fmt.Sprintf("%d requests", len(emu.Requests())) },
	}, nil
}
