// Command sandbox-emulator serves the bundled E2B API emulator on 127.0.0.1 for the demo and
// benchmarks. It prints E2B_API_URL=<url> as its first line and serves until SIGINT or SIGTERM.
// <url>/_emulator/stats (no key needed, not recorded) counts the requests by route and lists each
// build's started/ready/observed times, for scripts/bench.sh.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		log.Fatal(err)
	}
}

// run serves until ctx ends; the URL line goes to stdout first, so scripts can read it and go on.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	flags := flag.NewFlagSet("sandbox-emulator", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:0", "listen address (keep it on loopback)")
	apiKey := flags.String("api-key", "", "the only X-API-Key accepted (empty: any non-empty key)")
	buildDuration := flags.Duration("build-duration", 0, "how long each build stays in 'building'")
	if err := flags.Parse(args); err != nil {
		return err
	}

	emu := e2bemu.New(e2bemu.Options{APIKey: *apiKey, BuildDuration: *buildDuration})
	url, err := emu.Start(*addr)
	if err != nil {
		return fmt.Errorf("starting the E2B emulator: %w", err)
	}
	if _, err := fmt.Fprintf(stdout, "E2B_API_URL=%s\n", url); err != nil {
		return err
	}
	log.Printf("request counters: GET %s%s", url, e2bemu.StatsPath) // stderr: stdout's first line stays the URL
	<-ctx.Done()
	if err := emu.Close(); err != nil {
		return fmt.Errorf("closing the E2B emulator: %w", err)
	}
	log.Printf("E2B emulator stopped after %d requests", len(emu.Requests()))
	return nil
}
