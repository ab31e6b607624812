package e2bemu

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Template names, as packages/shared/pkg/id/id.go parses them: "namespace/alias:tag", lower-cased
// and trimmed; ":default" is no tag.

var (
	identifierRegex = regexp.MustCompile(`^[a-z0-9-_]+$`)
	tagRegex        = regexp.MustCompile(`^[a-z0-9-_.]+$`)
	uuidRegex       = regexp.MustCompile(`^(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

const defaultTag = "default"

func cleanAndValidate(value, name string, re *regexp.Regexp) (string, error) {
	cleaned := strings.ToLower(strings.TrimSpace(value))
	if !re.MatchString(cleaned) {
		return "", fmt.Errorf("invalid %s: %s", name, value)
	}
	return cleaned, nil
}

// parseName returns the identifier ("namespace/alias" or "alias") and the tag ("" for none or default).
func parseName(input string) (identifier, tag string, err error) {
	idPart, tagPart, hasTag := strings.Cut(strings.TrimSpace(input), ":")
	if hasTag {
		if tag, err = cleanAndValidate(tagPart, "tag", tagRegex); err != nil {
			return "", "", err
		}
		if tag == defaultTag {
			tag = ""
		}
	}
	namespace, alias, hasNamespace := strings.Cut(idPart, "/")
	if !hasNamespace {
		alias, namespace = namespace, ""
	} else if namespace, err = cleanAndValidate(namespace, "namespace", identifierRegex); err != nil {
		return "", "", err
	}
	if alias, err = cleanAndValidate(alias, "template ID", identifierRegex); err != nil {
		return "", "", err
	}
	if hasNamespace {
		return namespace + "/" + alias, tag, nil
	}
	return alias, tag, nil
}

// splitIdentifier returns the explicit namespace ("" for a bare alias) and the alias.
func splitIdentifier(identifier string) (namespace, alias string) {
	if ns, a, ok := strings.Cut(identifier, "/"); ok {
		return ns, a
	}
	return "", identifier
}

// namespaceProblem is id.ValidateNamespaceMatchesTeam: an explicit namespace must be the team's.
func namespaceProblem(identifier, teamSlug string) string {
	if ns, _ := splitIdentifier(identifier); ns != "" && ns != teamSlug {
		return fmt.Sprintf("namespace '%s' must match your team '%s'", ns, teamSlug)
	}
	return ""
}

// validateTags is id.ValidateAndDeduplicateTags (sorted here; the server's order is a map's).
func validateTags(tags []string) ([]string, error) {
	out := []string{}
	for _, tag := range tags {
		cleaned, err := cleanAndValidate(tag, "tag", tagRegex)
		if err == nil {
			if uuidRegex.MatchString(cleaned) {
				err = fmt.Errorf("tag cannot be a UUID")
			}
		}
		if err != nil {
			return nil, fmt.Errorf("invalid tag '%s': %w", tag, err)
		}
		if !slices.Contains(out, cleaned) {
			out = append(out, cleaned)
		}
	}
	slices.Sort(out)
	return out, nil
}
