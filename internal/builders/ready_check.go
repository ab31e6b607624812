package builders

import (
	"fmt"
	"net/url"
	"strings"
	"time"
)

// ReadyCheck is a typed ready command: exactly one of its checks, rendered as E2B's SDKs render
// their wait helpers (js-sdk template/readycmd.ts), so a template built here and one built with the
// SDK get the same ready command.
type ReadyCheck struct {
	Port       int    // waitForPort: something listens on the port
	URL        string // waitForURL: the URL answers StatusCode
	StatusCode int    // with URL; 0 means 200
	Process    string // waitForProcess: a process of that name runs
	File       string // waitForFile: the file exists
	Timeout    string // waitForTimeout: ready after this long, a duration such as "20s"
}

// Command is the shell command the check runs.
func (c ReadyCheck) Command() string {
	switch {
	case c.Port != 0:
		return fmt.Sprintf(`[ -n "$(ss -Htuln sport = :%d)" ]`, c.Port)
	case c.URL != "":
		status := c.StatusCode
		if status == 0 {
			status = 200
		}
		return fmt.Sprintf(`curl -s -o /dev/null -w "%%{http_code}" %s | grep -q "%d"`, ShellQuoteIfNeeded(c.URL), status)
	case c.Process != "":
		return "pgrep " + ShellQuoteIfNeeded(c.Process) + " > /dev/null"
	case c.File != "":
		return "[ -f " + ShellQuoteIfNeeded(c.File) + " ]"
	}
	d, _ := time.ParseDuration(c.Timeout)
	return fmt.Sprintf("sleep %d", max(1, int(d/time.Second))) // whole seconds, at least one, as the SDK
}

// problems checks the check, each problem on its field ("ready_check.port").
func (c ReadyCheck) problems() FieldErrors {
	var errs FieldErrors
	add := func(field, msg string) { errs = append(errs, FieldError{Field: "ready_check" + field, Message: msg}) }
	var set []string
	for name, isSet := range map[string]bool{"port": c.Port != 0, "url": c.URL != "", "process": c.Process != "",
		"file": c.File != "", "timeout": c.Timeout != ""} {
		if isSet {
			set = append(set, name)
		}
	}
	if len(set) != 1 {
		add("", "set exactly one of port, url, process, file or timeout")
		return errs
	}
	switch {
	case c.Port < 0 || c.Port > 65535:
		add(".port", fmt.Sprintf("must be a TCP port, 1-65535, got %d", c.Port))
	case c.URL != "":
		if u, err := url.Parse(c.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			add(".url", fmt.Sprintf("%q is not an http:// or https:// URL", c.URL))
		}
	case c.Process != "":
		if msg := wordProblem(c.Process); msg != "" {
			add(".process", msg)
		}
	case c.File != "":
		if strings.ContainsFunc(c.File, isControlOrSeparator) {
			add(".file", "must be one line of printable characters")
		}
	case c.Timeout != "":
		if d, err := time.ParseDuration(c.Timeout); err != nil || d <= 0 {
			add(".timeout", fmt.Sprintf("%q is not a positive duration such as \"20s\"", c.Timeout))
		}
	}
	if c.StatusCode != 0 && (c.URL == "" || c.StatusCode < 100 || c.StatusCode > 599) {
		add(".status_code", "applies to url only, and is an HTTP status, 100-599")
	}
	return errs
}

// ReadyCommand is the command that tells a sandbox of the template is ready: ready_check rendered,
// else ready_cmd ("" for the backend's default).
func (s TemplateSpec) ReadyCommand() string {
	if s.ReadyCheck != nil {
		return s.ReadyCheck.Command()
	}
	return s.ReadyCmd
}
