package opensandbox

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/builders/apihttp"
)

// A builder sandbox names, in its metadata, the template it prepares and the run that made it: the
// build, the host and the provider's process. A run killed mid-build (SIGKILL, an OOM kill) never
// deletes its builder sandbox, which then runs until its timeout; the next build of the template
// deletes it. Only a sandbox whose run is provably dead goes: one made on this host (the same
// hostname, boot and process namespace) by a process that no longer exists. A concurrent build's
// sandbox has a live process, so it stays; one made on another host cannot be judged from here,
// so it stays too and expires at its timeout. Metadata values follow k8s label rules (at most 63
// characters), so a longer template id is left out, and its builders are not looked for.
const (
	metaRole     = "sandboxtf-role"
	metaTemplate = "sandboxtf-template"
	metaBuild    = "sandboxtf-build"
	metaHost     = "sandboxtf-host"
	metaPID      = "sandboxtf-pid"
	builderRole  = "template-builder"
)

// thisHost names where this process runs: its hostname, boot (Linux boot_id) and pid namespace
// (Linux), hashed, so that a pid is only ever looked up in the namespace it was recorded in, also
// when containers share a hostname.
var thisHost = func() string {
	name, _ := os.Hostname()
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	pidNamespace, _ := os.Readlink("/proc/self/ns/pid")
	sum := sha256.Sum256([]byte(name + "\x00" + strings.TrimSpace(string(boot)) + "\x00" + pidNamespace))
	return hex.EncodeToString(sum[:8])
}()

// BuilderMetadata is the metadata of the builder sandbox that build (an id of the caller's) of
// templateID makes on this host in process pid. Build uses its own process id.
func BuilderMetadata(templateID, build string, pid int) map[string]string {
	md := map[string]string{metaRole: builderRole, metaBuild: build, metaHost: thisHost, metaPID: strconv.Itoa(pid)}
	if len(templateID) <= 63 {
		md[metaTemplate] = templateID
	}
	return md
}

// newBuildID names one build in its builder sandbox's metadata.
func newBuildID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// deleteDeadBuilders deletes the builder sandboxes of templateID left by runs that died on this
// host. It only logs what it did: a failure here must not stop the build.
func (b *Builder) deleteDeadBuilders(ctx context.Context, templateID string, logs *buildLog) {
	b.deleteDeadSandboxes(ctx, builderRole, templateID, "builder sandbox", "build", logs.Addf)
}

// deleteDeadSandboxes deletes the sandboxes of role (builders, checks) of templateID left by runs
// that died on this host, saying what it did through note (what names the sandbox, run the run).
func (b *Builder) deleteDeadSandboxes(ctx context.Context, role, templateID, what, run string, note func(format string, args ...any)) {
	if len(templateID) > 63 {
		return
	}
	labels := map[string]string{metaRole: role, metaTemplate: templateID}
	found, err := b.api.listSandboxes(ctx, labels)
	if err != nil {
		note("warning: could not look for a %s of %s left by an interrupted run: %v", what, templateID, err)
		return
	}
	for _, sb := range found {
		if !leftByDeadRun(sb.Metadata, labels) {
			continue
		}
		if err := b.api.deleteSandbox(ctx, sb.ID); err != nil && !apihttp.IsNotFound(err) {
			note("warning: could not delete %s %s, left by %s %s that died: %v", what, sb.ID, run, sb.Metadata[metaBuild], err)
			continue
		}
		note("deleted %s %s, left by %s %s of this template that died mid-%s", what, sb.ID, run, sb.Metadata[metaBuild], run)
	}
}

// leftByDeadRun tells whether a sandbox carrying metadata is a builder of the template labels
// name (checked here too: a server may ignore the filter) made on this host by a process that is
// gone.
func leftByDeadRun(metadata, labels map[string]string) bool {
	for key, value := range labels {
		if metadata[key] != value {
			return false
		}
	}
	pid, err := strconv.Atoi(metadata[metaPID])
	return err == nil && metadata[metaHost] == thisHost && processGone(pid)
}

// processGone tells whether no process pid exists on this host: on Unix signal 0 finds none
// (os.ErrProcessDone); on Windows the process cannot be opened. Anything else, a process of
// another user included, counts as alive.
func processGone(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	return errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone) || zombie(pid)
}

// zombie tells whether pid has exited but is not reaped yet (a provider killed with its CLI, whose
// new parent has not waited for it): signal 0 still finds it, yet it runs nothing. Linux shows it in
// /proc/<pid>/stat, whose state letter follows the command name in parentheses; elsewhere: false.
func zombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	end := bytes.LastIndexByte(stat, ')')
	return err == nil && end >= 0 && end+2 < len(stat) && (stat[end+2] == 'Z' || stat[end+2] == 'X')
}
