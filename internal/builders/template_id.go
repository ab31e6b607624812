package builders

import (
	"fmt"
	"regexp"
)

// templateIDPatterns are the identifier rules of each backend:
//   - E2B: a template name (alias), at most 128 characters (TemplateBuildRequestV3.name), lower case;
//   - OpenSandbox: the snapshot name; the same rule keeps names portable between backends;
//   - Bedrock: a code interpreter id, as the AgentCore control API defines it.
var templateIDPatterns = map[SandboxProvider]*regexp.Regexp{
	ProviderE2B:         regexp.MustCompile(`^[a-z0-9](?:[a-z0-9_-]{0,126}[a-z0-9])?$`),
	ProviderOpenSandbox: regexp.MustCompile(`^[a-z0-9](?:[a-z0-9_-]{0,126}[a-z0-9])?$`),
	ProviderBedrock:     regexp.MustCompile(`^(?:aws\.codeinterpreter\.v1|[a-zA-Z][a-zA-Z0-9_]{0,47}-[a-zA-Z0-9]{10})$`),
}

var templateIDRules = map[SandboxProvider]string{
	ProviderE2B:         "1-128 lower-case letters, digits, '-' or '_', starting and ending with a letter or digit",
	ProviderOpenSandbox: "1-128 lower-case letters, digits, '-' or '_', starting and ending with a letter or digit",
	ProviderBedrock:     "a code interpreter id: aws.codeinterpreter.v1 or <name>-<10 letters or digits>",
}

// TemplateIDRule describes the identifier rule of a backend, for diagnostics and docs.
func TemplateIDRule(p SandboxProvider) string { return templateIDRules[p] }

// ValidateTemplateID checks an identifier against the rule of its backend.
func ValidateTemplateID(p SandboxProvider, id string) error {
	pattern, ok := templateIDPatterns[p]
	if !ok {
		return fmt.Errorf("template_id: unknown sandbox provider %q", p)
	}
	if !pattern.MatchString(id) {
		return fmt.Errorf("template_id: %q is not valid for %s: must be %s", id, p, templateIDRules[p])
	}
	return nil
}
