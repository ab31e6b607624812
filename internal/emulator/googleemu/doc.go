// Package googleemu is a local Google OAuth2 token endpoint for the service-account JWT-bearer flow
// (RFC 7523) that golang.org/x/oauth2/google uses: it verifies the RS256 assertion against the public
// key of a key it generated, checks the iss, aud and scope claims, and issues an access token it
// records, so tests can follow the exact token to wherever it was used.
package googleemu
