// Command sandbox-emulator serves, on 127.0.0.1, every backend the provider talks to: the E2B API,
// OpenSandbox (lifecycle and execd), Daytona (API, toolbox and build logs), the AWS ECR and Bedrock AgentCore control APIs, and a Google
// OAuth2 token endpoint, each on its own port. It prints one NAME=value line per setting the provider
// reads (E2B_API_URL first), ready to source with `set -a; . ./file; set +a`, then serves until
// SIGINT or SIGTERM. `sandbox-emulator -help` lists the flags and each backend's /_emulator/ control
// path, through which scripts and black-box tests inject faults and seed state.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

// run serves until ctx ends. The settings go to stdout, all at once and only once every backend
// listens, so a script can read them and go on; logs go to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	opts, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil // -help: the usage is printed, nothing to serve
	}
	if err != nil {
		return err
	}
	emus, err := startAll(opts)
	if err != nil {
		return err
	}
	if err := printSettings(stdout, emus.settings); err != nil {
		return errors.Join(err, emus.close())
	}
	logger := log.New(stderr, "sandbox-emulator: ", log.LstdFlags)
	logger.Printf("serving %d backends until SIGINT or SIGTERM; control paths: sandbox-emulator -help", len(emus.backends))
	<-ctx.Done()
	if err := emus.close(); err != nil {
		return fmt.Errorf("stopping the emulators: %w", err)
	}
	logger.Printf("stopped: %s", emus.summary())
	return nil
}
