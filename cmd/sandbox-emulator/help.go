package main

import (
	"flag"
	"fmt"
)

// usage is -help: what the command prints, its flags, and each backend's control path.
func usage(flags *flag.FlagSet) {
	w := flags.Output()
	_, _ = fmt.Fprint(w, `Usage: sandbox-emulator [flags]

Serves, on 127.0.0.1, emulators of every backend the provider talks to, each on its own port, and
prints one NAME=value line per setting the provider reads, then "`+readyLine+`".
Lines starting with # are comments. To use them from a shell:

  sandbox-emulator >emulator.env &
  until grep -q '^# ready' emulator.env; do sleep 0.1; done
  set -a; . ./emulator.env; set +a

Flags:
`)
	flags.PrintDefaults()
	_, _ = fmt.Fprint(w, controlHelp)
}

// controlHelp documents the control paths: unauthenticated, never counted as API requests, and
// served by each emulator's own handler under /_emulator/ of the base URL named.
const controlHelp = `
Control paths (no credentials needed; not recorded as API requests):

  E2B, under $E2B_API_URL/_emulator/
    GET  stats?since=N     requests by route since request N, each build's created/started/ready/
                           observed times (scripts/bench.sh reads it)
`
