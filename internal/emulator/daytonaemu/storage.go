package daytonaemu

import (
	"fmt"
	"strings"
)

// copyStep is COPY (and ADD of local files): the sources are files of the build context, the
// tars the SDK uploaded to object storage under the organization and each context hash
// (ObjectStorage.ts upload; runner image_build.go reads them back by hash). Callers hold mu.
func (s *Server) copyStep(res *buildResult, args string, _ []string) string {
	if res.machine == nil {
		return ""
	}
	words := shellWords(args)
	if len(words) < 2 {
		return "failed to solve: COPY requires at least two arguments"
	}
	src := words[0]
	return fmt.Sprintf("failed to solve: failed to compute cache key: failed to calculate checksum of ref: %q: not found", "/"+strings.TrimPrefix(src, "/"))
}
