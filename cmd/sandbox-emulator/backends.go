package main

import (
	"errors"
	"fmt"
	"net"
	"strings"
)

// backend is one emulator, listening.
type backend struct {
	name     string
	settings []setting
	close    func() error
	activity func() string // what it answered, for the log at exit
}

// running is every backend, started in this order: E2B first, so E2B_API_URL is the first line.
type running struct {
	settings []setting
	backends []backend
}

var starters = []func(options) (backend, error){startE2B, startOpenSandbox, startDaytona, startAWS, startGoogle}

func startAll(o options) (*running, error) {
	r := &running{}
	for _, start := range starters {
		b, err := start(o)
		if err != nil {
			return nil, errors.Join(err, r.close())
		}
		r.settings = append(r.settings, b.settings...)
		r.backends = append(r.backends, b)
	}
	return r, nil
}

// close stops every backend, the last started first, and reports every failure.
func (r *running) close() error {
	var errs []error
	for i := len(r.backends) - 1; i >= 0; i-- {
		if err := r.backends[i].close(); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", r.backends[i].name, err))
		}
	}
	return errors.Join(errs...)
}

func (r *running) summary() string {
	parts := make([]string, 0, len(r.backends))
	for _, b := range r.backends {
		parts = append(parts, b.name+" "+b.activity())
	}
	return strings.Join(parts, ", ")
}

// listenAddr is host:port for a backend; every backend but E2B takes a free port.
func listenAddr(o options, port string) string { return net.JoinHostPort(o.host, port) }
