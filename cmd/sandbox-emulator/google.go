package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/googleemu"
)

// startGoogle serves Google's OAuth2 token endpoint and writes a service-account key file whose
// token_uri is that endpoint: Google's libraries read it from GOOGLE_APPLICATION_CREDENTIALS, and
// its content is what registry_auth.gcp.service_account_json takes.
func startGoogle(o options) (backend, error) {
	emu := googleemu.New()
	if err := emu.Start(listenAddr(o, "0")); err != nil {
		return backend{}, fmt.Errorf("starting the Google token emulator: %w", err)
	}
	path, removeKey, err := keyFilePath(o.gcpKeyFile)
	if err == nil {
		err = emu.WriteServiceAccountKey(path)
	}
	if err != nil {
		return backend{}, errors.Join(fmt.Errorf("writing the service-account key file: %w", err), removeKey(), emu.Close())
	}
	return backend{
		name: "google",
		settings: []setting{
			{"GOOGLE_APPLICATION_CREDENTIALS", path},
			{"GOOGLE_TOKEN_URL", emu.TokenURL()},
		},
		close:    func() error { return errors.Join(emu.Close(), removeKey()) },
		activity: func() string { return fmt.Sprintf("%d tokens issued", len(emu.Issued())) },
	}, nil
}

// keyFilePath is where to write the key: the path asked for (kept at exit), or a file in a new
// temporary directory that remove deletes (the key is only good while this emulator runs).
func keyFilePath(asked string) (path string, remove func() error, err error) {
	if asked != "" {
		abs, err := filepath.Abs(asked) // the printed path must not depend on the reader's directory
		return abs, func() error { return nil }, err
	}
	dir, err := os.MkdirTemp("", "sandbox-emulator-")
	if err != nil {
		return "", func() error { return nil }, err
	}
	return filepath.Join(dir, "service-account.json"), func() error { return os.RemoveAll(dir) }, nil
}
