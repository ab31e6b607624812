package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
)

// setting is one NAME=value line: an environment variable the provider (or the vendor SDK it
// uses) reads.
type setting struct{ name, value string }

// readyLine ends the output: a script that waits for it has every setting.
const readyLine = "# ready: serving until SIGINT or SIGTERM"

// printSettings writes every line in one write, so a reader never sees half of them.
func printSettings(w io.Writer, settings []setting) error {
	var b strings.Builder
	for _, s := range settings {
		fmt.Fprintf(&b, "%s=%s\n", s.name, s.value)
	}
	b.WriteString(readyLine + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// throwaway returns a random credential for this run only, prefixed to say what it is.
func throwaway(prefix string, bytes int) string {
	b := make([]byte, bytes)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return prefix + hex.EncodeToString(b)
}
