// Command sandbox-emulator serves the bundled E2B API emulator on 127.0.0.1 for the demo and
// benchmarks. It prints E2B_API_URL=<url> as its first line and serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/e2bemu"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (keep it on loopback)")
	apiKey := flag.String("api-key", "", "the only X-API-Key accepted (empty: any)")
	buildDuration := flag.Duration("build-duration", 0, "how long each build stays in 'building'")
	flag.Parse()

	emu := e2bemu.New(e2bemu.Options{APIKey: *apiKey, BuildDuration: *buildDuration})
	url, err := emu.Start(*addr)
	if err != nil {
		log.Fatalf("starting the E2B emulator: %v", err)
	}
	fmt.Printf("E2B_API_URL=%s\n", url)

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	<-stop
	start := time.Now()
	if err := emu.Close(); err != nil {
		log.Printf("closing: %v", err)
	}
	log.Printf("E2B emulator stopped after %d requests (%s)", len(emu.Requests()), time.Since(start).Round(time.Millisecond))
}
