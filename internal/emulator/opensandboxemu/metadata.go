package opensandboxemu

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// Sandbox metadata are container labels, held to Kubernetes' label rules (OSB
// services/validators.py ensure_metadata_labels), and listed by ?metadata= (api/lifecycle.py).

const reservedLabelPrefix = "opensandbox.io/" // services/constants.py RESERVED_LABEL_PREFIX

var (
	dnsSubdomainRe = regexp.MustCompile(`^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?\.)*[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)
	labelNameRe    = regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`)
	labelValueRe   = regexp.MustCompile(`^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$`)
)

// metadataProblem is ensure_metadata_labels: the message of its 400 SANDBOX::INVALID_METADATA_LABEL
// for the first bad key or value, or "".
func metadataProblem(metadata map[string]string) string {
	for key, value := range metadata {
		switch {
		case strings.HasPrefix(key, reservedLabelPrefix):
			return fmt.Sprintf("Metadata key '%s' uses the reserved prefix '%s'. Keys under this prefix are managed by the system and cannot be set via metadata.", key, reservedLabelPrefix)
		case !validLabelKey(key):
			return fmt.Sprintf("Metadata key '%s' is invalid: must be either a name or a DNS-subdomain prefix and name separated by /, where the name is up to 63 characters and matches [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, and the optional prefix is a valid DNS subdomain up to 253 characters.", key)
		case len(value) > 63 || !labelValueRe.MatchString(value):
			return fmt.Sprintf("Metadata value '%s' is invalid: must be 63 characters or less, start/end with an alphanumeric character, and contain only alphanumeric, '-', '_', or '.' characters.", value)
		}
	}
	return ""
}

func validLabelKey(key string) bool {
	name := key
	if prefix, rest, ok := strings.Cut(key, "/"); ok {
		if prefix == "" || rest == "" || len(prefix) > 253 || !dnsSubdomainRe.MatchString(prefix) {
			return false
		}
		name = rest
	}
	return len(name) <= 63 && labelNameRe.MatchString(name)
}

// metadataFilter parses ?metadata= ("k=v&k2=v2", URL-encoded once more in the query) as Python's
// parse_qsl(strict_parsing=True) does: a segment without "=" is an error (400 INVALID_METADATA_FORMAT).
func metadataFilter(raw string) (map[string]string, error) {
	filter := map[string]string{}
	if raw == "" {
		return filter, nil
	}
	for _, pair := range strings.Split(raw, "&") {
		key, value, ok := strings.Cut(pair, "=")
		if !ok {
			return nil, fmt.Errorf("bad query field: %q", pair)
		}
		k, errK := url.QueryUnescape(key)
		v, errV := url.QueryUnescape(value)
		if errK != nil || errV != nil {
			return nil, fmt.Errorf("bad query field: %q", pair)
		}
		filter[k] = v
	}
	return filter, nil
}

// matchesMetadata is services/helpers.py matches_filter: every filtered key has that value.
func matchesMetadata(metadata, filter map[string]string) bool {
	for key, value := range filter {
		if got, ok := metadata[key]; !ok || got != value {
			return false
		}
	}
	return true
}
