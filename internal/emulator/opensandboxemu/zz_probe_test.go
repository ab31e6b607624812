package opensandboxemu

import (
	"context"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestProbe(t *testing.T) {
	for _, f := range []string{"/work/shared/specs/opensandbox-lifecycle.yml", "/work/shared/specs/opensandbox-execd.yml"} {
		l := openapi3.NewLoader()
		doc, err := l.LoadFromFile(f)
		if err != nil {
			t.Fatal(f, err)
		}
		t.Log(f, doc.IsOpenAPI31OrLater())
		if err := doc.Validate(context.Background()); err != nil {
			t.Error(f, err)
		}
	}
}
