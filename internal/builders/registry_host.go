package builders

import (
	"regexp"
	"strings"

	"github.com/distribution/reference"
)

// RegistryHost is the registry an image is pulled from, as Docker resolves it ("docker.io" for
// "python:3.12"); false when image is not a valid reference.
func RegistryHost(image string) (string, bool) {
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return "", false
	}
	return reference.Domain(named), true
}

// ecrHostPattern matches private ECR registry hosts, IPv4 and dual-stack, commercial and China
// partitions: <account>.dkr.ecr[-fips].<region>.amazonaws.com[.cn] or <account>.dkr-ecr[-fips].<region>.on.aws.
// It follows amazon-ecr-credential-helper's ecrPattern.
var ecrHostPattern = regexp.MustCompile(`^([a-zA-Z0-9][a-zA-Z0-9-_]*)\.(?:dkr\.ecr|dkr-ecr)(?:-fips)?\.([a-zA-Z0-9][a-zA-Z0-9-_]*)\.(?:amazonaws\.com(?:\.cn)?|on\.aws)$`)

// ECRRegistry is the account and region of a private ECR registry.
type ECRRegistry struct {
	AccountID string
	Region    string
}

// ParseECRHost reads the account and region of a private ECR registry host.
func ParseECRHost(host string) (ECRRegistry, bool) {
	m := ecrHostPattern.FindStringSubmatch(host)
	if m == nil {
		return ECRRegistry{}, false
	}
	return ECRRegistry{AccountID: m[1], Region: m[2]}, true
}

// IsGoogleRegistryHost tells whether host is one of Google's image registries: Artifact Registry
// (<location>-docker.pkg.dev) or Container Registry (gcr.io, <region>.gcr.io), the hosts
// docker-credential-gcr logs in to.
func IsGoogleRegistryHost(host string) bool {
	return host == "gcr.io" || strings.HasSuffix(host, ".gcr.io") || strings.HasSuffix(host, "-docker.pkg.dev")
}

// awsRegionPattern is the shape of an AWS region name: us-east-1, us-gov-west-1, cn-north-1,
// eusc-de-east-1.
var awsRegionPattern = regexp.MustCompile(`^[a-z]{2,4}(-[a-z]+)+-[0-9]{1,2}$`)
