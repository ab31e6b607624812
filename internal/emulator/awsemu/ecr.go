package awsemu

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

const (
	ecrTargetPrefix = "AmazonEC2ContainerRegistry_V20150921."
	// ECRTokenLifetime is how long ECR authorization tokens are valid.
	ECRTokenLifetime = 12 * time.Hour
)

type ecrToken struct{ user, password string }

// IssueToken sets the login ECR hands out from now on (base64 of user:password in the token).
func (e *Emulator) IssueToken(user, password string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ecrToken = ecrToken{user: user, password: password}
}

type getAuthorizationTokenRequest struct {
	RegistryIDs []string `json:"registryIds"`
}

type authorizationData struct {
	AuthorizationToken string  `json:"authorizationToken"`
	ExpiresAt          float64 `json:"expiresAt"` // epoch seconds, as awsJson1_1 encodes timestamps
	ProxyEndpoint      string  `json:"proxyEndpoint"`
}

func (e *Emulator) serveECR(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	operation := strings.TrimPrefix(r.Header.Get("X-Amz-Target"), ecrTargetPrefix)
	req, apiErr := e.admit(r, "ecr", operation, body, true)
	var out any
	if apiErr == nil {
		out, apiErr = e.ecrOperation(operation, req.Region, body)
	}
	e.respond(w, req, out, apiErr, true)
}

func (e *Emulator) ecrOperation(operation, region string, body []byte) (any, *apiError) {
	if operation != "GetAuthorizationToken" {
		return nil, &apiError{status: http.StatusBadRequest, code: "UnknownOperationException", message: "awsemu does not emulate ECR " + operation}
	}
	if e.denies(operation) {
		return nil, errAccessDenied(e.accountID, "ecr:GetAuthorizationToken")
	}
	var in getAuthorizationTokenRequest
	if len(body) > 0 {
		if err := json.Unmarshal(body, &in); err != nil {
			return nil, errValidation("request body is not valid JSON")
		}
	}
	registries := in.RegistryIDs
	if len(registries) == 0 {
		registries = []string{e.accountID} // the caller's default registry
	}
	e.mu.Lock()
	token := e.ecrToken
	e.mu.Unlock()
	encoded := base64.StdEncoding.EncodeToString([]byte(token.user + ":" + token.password))
	expiresAt := float64(e.now().Add(ECRTokenLifetime).UnixMilli()) / 1000
	var data []authorizationData
	for _, registry := range registries {
		data = append(data, authorizationData{
			AuthorizationToken: encoded,
			ExpiresAt:          expiresAt,
			ProxyEndpoint:      fmt.Sprintf("https://%s.dkr.ecr.%s.amazonaws.com", registry, region),
		})
	}
	return map[string]any{"authorizationData": data}, nil
}
