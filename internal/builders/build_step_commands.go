package builders

import (
	"strconv"
	"strings"
)

// The shell commands of the steps that are commands, as E2B's SDK writes them (js-sdk
// template/index.ts aptInstall, npmInstall, gitClone): E2B receives them as RUN steps, and
// OpenSandbox runs the same text through execd. Words are quoted only where the shell would split
// or expand them, as the SDK's shellQuote does, so a command is byte for byte the SDK's.

// Command is aptInstall's: update the index, then install without prompts.
func (a AptStep) Command() string {
	flags := ""
	if a.NoInstallRecommends {
		flags = "--no-install-recommends "
	}
	return "apt-get update && DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y " + flags + QuoteEach(a.Packages)
}

// Command is npmInstall's: -g installs globally (as root), else into the working directory.
func (n NpmStep) Command() string {
	if n.Global {
		return "npm install -g " + QuoteEach(n.Packages)
	}
	return "npm install " + QuoteEach(n.Packages)
}

// Command is gitClone's: the branch alone (--single-branch) and a shallow depth when set.
func (g GitCloneStep) Command() string {
	args := []string{"git", "clone", ShellQuoteIfNeeded(g.URL)}
	if g.Branch != "" {
		args = append(args, "--branch "+ShellQuoteIfNeeded(g.Branch), "--single-branch")
	}
	if g.Depth > 0 {
		args = append(args, "--depth "+strconv.Itoa(g.Depth))
	}
	if g.Path != "" {
		args = append(args, ShellQuoteIfNeeded(g.Path))
	}
	return strings.Join(args, " ")
}

// QuoteEach joins words for a shell, each quoted only where needed (ShellQuoteIfNeeded).
func QuoteEach(words []string) string {
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = ShellQuoteIfNeeded(w)
	}
	return strings.Join(quoted, " ")
}
