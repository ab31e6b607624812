// Package sandboxos is what the emulators run commands in: an image model, a per-sandbox
// filesystem and a shell, shared by the E2B and OpenSandbox emulators so that a command has one
// outcome on both, and the outcome the servers' shells give it.
//
// Images (Catalogue) are profiles by distribution family (Debian, Ubuntu, Alpine, distroless),
// each with its package manager, programs and users; Docker Hub's well-known official images by
// name and tag (python:3.12-alpine is Alpine; node:20 has node, npm, git and curl; a tag the
// official image never had, or a repository Docker Hub does not have, fails to pull); E2B's and
// OpenSandbox's code-interpreter images; and an assumption, said in Image.Assumption, for what it
// cannot know (a private registry's repository is taken to be Debian with Python, as
// python:3.12). A Declaration replaces the assumption.
//
// A Machine boots an image into a filesystem (FS) holding /etc/passwd, /etc/group, the programs
// on the PATH and whatever commands write. Commands run through mvdan.cc/sh's interpreter with
// bash semantics (lists, pipelines, sh -c, exit N, variables, quoting, redirections into the
// filesystem); a program is found on the PATH in that filesystem (127 and bash's "command not
// found" when it is not) and runs a Go model of it (programs*.go): apt-get/apt, apk, pip, npm,
// python, node, git, curl, useradd, getent, id, sudo, coreutils. What one command installs or
// writes is there for the next, for start and ready commands, and in a Clone taken for a
// template or a snapshot.
//
// What is not modelled is said where it is decided: package indexes and registries (any
// well-formed package exists), the network (remote URLs answer 200 empty; localhost answers once
// something serves), time (sleep returns at once, except as a service), and programs without a
// model (they succeed; run as a service, they keep running).
package sandboxos
