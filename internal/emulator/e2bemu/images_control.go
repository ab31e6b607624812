package e2bemu

import "github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"

// POST /_emulator/images declares what an image holds (sandboxos.Declaration, with its ref):
// builds from it pull and provision it as declared, instead of what the emulator would assume.
func init() {
	controls["images"] = jsonControl(func(s *Server, d sandboxos.ImageDeclaration) string {
		if err := s.DeclareImage(d); err != nil {
			return err.Error()
		}
		return ""
	})
}

// DeclareImage makes builds from d.Ref pull the image d describes.
func (s *Server) DeclareImage(d sandboxos.ImageDeclaration) error { return s.catalogue.DeclareImage(d) }
