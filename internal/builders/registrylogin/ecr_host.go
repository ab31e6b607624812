package registrylogin

import (
	"regexp"

	"github.com/distribution/reference"
)

// ecrHostPattern matches private ECR registry hosts, IPv4 and dual-stack, commercial and China
// partitions: <account>.dkr.ecr[-fips].<region>.amazonaws.com[.cn] or <account>.dkr-ecr[-fips].<region>.on.aws.
// It follows amazon-ecr-credential-helper's ecrPattern.
var ecrHostPattern = regexp.MustCompile(`^([a-zA-Z0-9][a-zA-Z0-9-_]*)\.(?:dkr\.ecr|dkr-ecr)(?:-fips)?\.([a-zA-Z0-9][a-zA-Z0-9-_]*)\.(?:amazonaws\.com(?:\.cn)?|on\.aws)$`)

// ecrRegistry is the account and region named by an ECR image host.
type ecrRegistry struct {
	accountID string
	region    string
}

// parseECRRegistry reads the registry of image when it is hosted on private ECR.
func parseECRRegistry(image string) (ecrRegistry, bool) {
	named, err := reference.ParseNormalizedNamed(image)
	if err != nil {
		return ecrRegistry{}, false
	}
	m := ecrHostPattern.FindStringSubmatch(reference.Domain(named))
	if m == nil {
		return ecrRegistry{}, false
	}
	return ecrRegistry{accountID: m[1], region: m[2]}, true
}
