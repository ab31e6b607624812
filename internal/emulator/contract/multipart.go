package contract

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
)

// A multipart part declared `type: string` with an encoding contentType of application/json holds
// JSON text (execd's /files/upload "metadata" part, sent so by the official SDKs). kin-openapi
// decodes such a part as JSON into an object and then finds no string; this decoder hands the
// schema the part's text again, as the spec means it.
func init() {
	openapi3filter.RegisterBodyDecoder("multipart/form-data", func(body io.Reader, header http.Header, schema *openapi3.SchemaRef,
		encFn openapi3filter.EncodingFn) (any, error) {
		value, err := openapi3filter.MultipartBodyDecoder(body, header, schema, encFn)
		obj, ok := value.(map[string]any)
		if err != nil || !ok {
			return value, err
		}
		for name, v := range obj {
			if prop := schema.Value.Properties[name]; prop != nil && prop.Value.Type.Is("string") {
				if _, isString := v.(string); !isString {
					text, _ := json.Marshal(v)
					obj[name] = string(text)
				}
			}
		}
		return obj, nil
	})
}
