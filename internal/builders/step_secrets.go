package builders

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The provider never learns which configuration values are sensitive: Terraform strips the marks
// of sensitive variables before it sends a configuration to a provider. So the values of steps and
// commands that may be credentials are found by one rule, here, and every text that leaves a build
// (build logs and the progress they stream, errors, step descriptions) is scrubbed of them:
//
//   - the credential in the userinfo of any URL in a step, a package or a command: its password
//     (https://x-access-token:TOKEN@github.com), or its user name when that is the only credential
//     (https://TOKEN@github.com). An ssh:// user name is a login, not a credential: keys do the rest;
//   - every value of an env step of at least MinEnvSecretLength characters. Shorter values ("Agg",
//     "1", "true") are too likely to be ordinary words to redact wherever they appear.
//
// A literal token elsewhere (a run command's header) is not recognised: pass it through an env step.

// MinEnvSecretLength is the length from which an env step's value counts as a possible secret: the
// shortest password a password policy may require (NIST SP 800-63B).
const MinEnvSecretLength = 8

// urlAuthority matches a URL's scheme and authority (userinfo@host:port), up to where its path,
// query or fragment starts or the text around it resumes (a space, a quote).
var urlAuthority = regexp.MustCompile("([A-Za-z][A-Za-z0-9+.-]*)://([^\\s/?#\"'`<>\\\\]*)")

// StepSecrets are the values of the spec's steps, packages and commands that may be credentials
// (see the rule above): what its build scrubs besides registry secrets and API keys.
func (s TemplateSpec) StepSecrets() []Secret {
	var secrets []Secret
	for _, step := range s.BuildSteps() {
		secrets = append(secrets, step.Secrets()...)
	}
	startCmd, _ := s.StartCommand("")
	for _, text := range []string{startCmd, s.ReadyCommand(), s.Dockerfile} { //nolint:staticcheck // a deprecated input's commands hold URLs too
		secrets = append(secrets, urlCredentials(text)...)
	}
	return secrets
}

// Secrets are the values of the step that may be credentials (see the rule above).
func (s BuildStep) Secrets() []Secret {
	var texts []string
	switch {
	case s.Run != nil:
		texts = []string{s.Run.Command}
	case s.Pip != nil:
		texts = s.Pip.Packages // git+https://TOKEN@github.com/..., --index-url=https://user:password@...
	case s.Npm != nil:
		texts = s.Npm.Packages
	case s.GitClone != nil:
		texts = []string{s.GitClone.URL}
	case s.File != nil && s.File.Content != nil:
		texts = []string{*s.File.Content} // a pip.conf or .npmrc written inline
	}
	var secrets []Secret
	for _, value := range s.Env {
		if utf8.RuneCountInString(value) >= MinEnvSecretLength {
			secrets = append(secrets, NewSecret(value))
		}
		texts = append(texts, value)
	}
	for _, text := range texts {
		secrets = append(secrets, urlCredentials(text)...)
	}
	return secrets
}

// urlCredentials are the credentials in the userinfo of the URLs in text, as written and, where it
// differs, percent-decoded.
func urlCredentials(text string) []Secret {
	var secrets []Secret
	for _, m := range urlAuthority.FindAllStringSubmatch(text, -1) {
		scheme, authority := strings.ToLower(m[1]), m[2]
		at := strings.LastIndex(authority, "@") // a password may hold an unescaped "@"; the host cannot
		if at < 0 {
			continue
		}
		user, password, _ := strings.Cut(authority[:at], ":")
		credential := password
		if credential == "" && !strings.Contains(scheme, "ssh") && scheme != "sftp" {
			credential = user
		}
		if credential == "" {
			continue
		}
		secrets = append(secrets, NewSecret(credential))
		if decoded, err := url.PathUnescape(credential); err == nil && decoded != credential {
			secrets = append(secrets, NewSecret(decoded))
		}
	}
	return secrets
}
