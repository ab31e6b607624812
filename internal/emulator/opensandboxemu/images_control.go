package opensandboxemu

import (
	"net/http"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// POST /_emulator/images declares what an image holds (sandboxos.Declaration, with its ref):
// sandboxes created from it run it as declared, instead of what the emulator would assume.
func (s *Server) imageControlRoutes() {
	s.mux.HandleFunc("POST "+ControlPath+"images", func(w http.ResponseWriter, r *http.Request) {
		var d sandboxos.ImageDeclaration
		if !decodeControl(w, r, &d) {
			return
		}
		if err := s.DeclareImage(d); err != nil {
			writeError(w, http.StatusBadRequest, "EMULATOR::INVALID_IMAGE", err.Error())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}

// DeclareImage makes sandboxes of d.Ref run the image d describes.
func (s *Server) DeclareImage(d sandboxos.ImageDeclaration) error { return s.catalogue.DeclareImage(d) }
