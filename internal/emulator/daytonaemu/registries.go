package daytonaemu

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sandboxtf/terraform-provider-sandbox/internal/emulator/sandboxos"
)

// Registry is an organization's registry entry (docker-registry/entities/docker-registry.entity.ts).
type Registry struct {
	ID        string
	Name      string
	URL       string
	Username  string
	Password  string
	Project   string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// dto is DockerRegistryDto.fromDockerRegistry: never the password.
func (g *Registry) dto() map[string]any {
	return map[string]any{"id": g.ID, "name": g.Name, "url": g.URL, "username": g.Username, "project": g.Project,
		"registryType": "organization", "createdAt": g.CreatedAt, "updatedAt": g.UpdatedAt}
}

type registryRequest struct {
	Name     *string `json:"name"`
	URL      *string `json:"url"`
	Username *string `json:"username"`
	Password *string `json:"password"`
	Project  *string `json:"project"`
}

// problems are class-validator's messages for CreateDockerRegistryDto (password required) or
// UpdateDockerRegistryDto (password optional).
func (q registryRequest) problems(passwordRequired bool) []string {
	var out []string
	if q.Name == nil {
		out = append(out, "name must be a string")
	}
	if q.URL == nil || !isURL(*q.URL) {
		out = append(out, "url must be a URL address")
	}
	if q.Username == nil {
		out = append(out, "username must be a string")
	}
	if passwordRequired && q.Password == nil {
		out = append(out, "password must be a string")
	}
	return out
}

// isURL is class-validator's IsUrl, roughly: a host name with a dot (or localhost), an optional
// scheme, port and path.
func isURL(s string) bool {
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	return err == nil && u.Host != "" && (strings.Contains(u.Hostname(), ".") || u.Hostname() == "localhost")
}

// normalizeRegistryURL is docker-registry.service.ts normalizeRegistryUrl: any Docker Hub URL (or
// none) is stored as docker.io, others without trailing slashes.
func normalizeRegistryURL(u string) string {
	if strings.TrimSpace(u) == "" || strings.Contains(strings.ToLower(u), "docker.io") {
		return "docker.io"
	}
	return strings.TrimRight(strings.TrimSpace(u), "/")
}

func (s *Server) createRegistry(w http.ResponseWriter, r *http.Request) error {
	var q registryRequest
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		return badRequest("Unexpected token in JSON body: " + err.Error())
	}
	if p := q.problems(true); len(p) > 0 {
		return badRequest(strings.Join(p, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.registries) >= 100 { // docker-registry.service.ts create
		return badRequest("You have reached the maximum number of registries")
	}
	now := s.now()
	g := &Registry{ID: newUUID(), Name: *q.Name, URL: normalizeRegistryURL(*q.URL), Username: *q.Username,
		Password: *q.Password, Project: deref(q.Project), CreatedAt: now, UpdatedAt: now}
	s.registries = append(s.registries, g)
	writeJSON(w, http.StatusCreated, g.dto())
	return nil
}

// listRegistries answers the organization's entries, newest first (findAll orders createdAt DESC).
func (s *Server) listRegistries(w http.ResponseWriter, _ *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []map[string]any{}
	for i := len(s.registries) - 1; i >= 0; i-- {
		out = append(out, s.registries[i].dto())
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// registryByID is DockerRegistryAccessGuard: an entry of the organization, else 404.
func (s *Server) registryByID(id string) (*Registry, int, error) {
	for i, g := range s.registries {
		if g.ID == id {
			return g, i, nil
		}
	}
	return nil, -1, notFound("Docker registry with ID " + id + " not found")
}

func (s *Server) getRegistry(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, _, err := s.registryByID(r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, g.dto())
	return nil
}

// updateRegistry replaces name, url, username and project, and the password only when one is
// sent (docker-registry.service.ts update).
func (s *Server) updateRegistry(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	g, _, err := s.registryByID(r.PathValue("id"))
	s.mu.Unlock()
	if err != nil {
		return err
	}
	var q registryRequest
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
		return badRequest("Unexpected token in JSON body: " + err.Error())
	}
	if p := q.problems(false); len(p) > 0 {
		return badRequest(strings.Join(p, ", "))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	g.Name, g.URL, g.Username, g.Project, g.UpdatedAt = *q.Name, normalizeRegistryURL(*q.URL), *q.Username, deref(q.Project), s.now()
	if q.Password != nil && *q.Password != "" {
		g.Password = *q.Password
	}
	writeJSON(w, http.StatusOK, g.dto())
	return nil
}

func (s *Server) deleteRegistry(w http.ResponseWriter, r *http.Request) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, i, err := s.registryByID(r.PathValue("id"))
	if err != nil {
		return err
	}
	s.registries = append(s.registries[:i], s.registries[i+1:]...)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// registryFor is the credential a pull of image uses (docker-registry.service.ts
// findRegistryByImageName): for an image with a registry host, the organization's entry whose
// URL, without scheme, starts the image name at a boundary ('/', ':' or its end:
// findRegistryByUrlMatch); for a Docker Hub image, the entry whose URL is docker.io. Nil when
// none matches: the pull is anonymous. Callers hold mu.
func (s *Server) registryFor(image string) *Credential {
	host := ""
	if first, _, ok := strings.Cut(image, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		host = first
	}
	for _, g := range s.registries {
		stripped := strings.TrimPrefix(strings.TrimPrefix(g.URL, "https://"), "http://")
		matches := false
		if host == "" {
			matches = stripped == "docker.io" || strings.HasPrefix(stripped, "docker.io/")
		} else if rest, ok := strings.CutPrefix(image, stripped); ok {
			matches = rest == "" || rest[0] == '/' || rest[0] == ':'
		}
		if matches {
			return &Credential{Username: g.Username, Password: g.Password}
		}
	}
	return nil
}

// credentialForBase is the credential a build pulls its base image with
// (getSourceRegistriesForDockerfile): every organization entry when the Dockerfile names an image
// with a registry host, else only a Docker Hub entry. Callers hold mu.
func (s *Server) credentialForBase(image string, dockerfileHasRegistry bool) *Credential {
	r := sandboxos.ParseReference(image)
	for _, g := range s.registries {
		host, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(g.URL, "https://"), "http://"), "/")
		isHub := strings.Contains(g.URL, "docker.io")
		// BuildKit looks the credential up by the image's registry host (image_build.go keys
		// AuthConfigs by https://<entry url>)
		if (isHub && r.Registry == "docker.io") || (dockerfileHasRegistry && !isHub && host == r.Registry) {
			return &Credential{Username: g.Username, Password: g.Password}
		}
	}
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
