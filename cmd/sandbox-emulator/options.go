package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"time"
)

// options are the parsed flags.
type options struct {
	host          string // every backend listens on this loopback IP
	e2bPort       string // "0" unless -addr names a port: E2B's, as before there were other backends
	apiKey        string // E2B's, OpenSandbox's and Daytona's key; empty: a fresh random one
	buildDuration time.Duration
	awsRegion     string
	gcpKeyFile    string     // where to write the service-account key; empty: a temporary file removed on exit
	images        imageFlags // -image: what images the E2B, OpenSandbox and Daytona emulators cannot know hold
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	flags := flag.NewFlagSet("sandbox-emulator", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { usage(flags) }
	addr := flags.String("addr", "127.0.0.1", "loopback IP to serve on; every backend takes a free port (a port given here is E2B's)")
	apiKey := flags.String("api-key", "", "the only E2B X-API-Key, OPEN-SANDBOX-API-KEY and Daytona Bearer key accepted (empty: a random one, printed)")
	buildDuration := flags.Duration("build-duration", 0, "how long each E2B build stays 'building' (0: ready at the first poll)")
	awsRegion := flags.String("aws-region", "us-east-1", "the AWS_REGION printed: the region the provider signs for and ARNs name")
	gcpKeyFile := flags.String("gcp-key-file", "", "write the service-account key file here (empty: a temporary file, removed on exit)")
	images := imageFlags{}
	flags.Var(images, "image", `declare what an image holds, repeatable: REF={"family":"debian|ubuntu|alpine|distroless","programs":[...],"users":[...],"user":"...","workdir":"...","entrypoint":[...]}`+
		` (undeclared private images are taken to be Debian with Python, as python:3.12)`)
	if err := flags.Parse(args); err != nil {
		return options{}, err
	}
	if flags.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected arguments %q (see -help)", flags.Args())
	}
	host, port, err := splitAddr(*addr)
	if err != nil {
		return options{}, err
	}
	if *awsRegion == "" {
		return options{}, fmt.Errorf("-aws-region must not be empty")
	}
	return options{host: host, e2bPort: port, apiKey: *apiKey, buildDuration: *buildDuration,
		awsRegion: *awsRegion, gcpKeyFile: *gcpKeyFile, images: images}, nil
}

// splitAddr takes "host" or "host:port" and refuses anything but loopback: the emulators accept
// throwaway credentials and echo what they are sent, which nothing beyond this machine should see.
func splitAddr(addr string) (host, port string, err error) {
	host, port = addr, "0"
	if h, p, splitErr := net.SplitHostPort(addr); splitErr == nil {
		host, port = h, p
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() { // an IP: a name may resolve elsewhere
		return "", "", fmt.Errorf("-addr %q: serve on a loopback IP address such as 127.0.0.1", addr)
	}
	return host, port, nil
}
