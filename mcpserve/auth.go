package mcpserve

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
)

// tokenPrincipal is who a request carrying the one configured token is. With
// a single token every holder is the same principal; it names the run scope's
// agent and binds each HTTP session to it (the SDK refuses a session's later
// requests from another principal).
const tokenPrincipal = "bearer-token"

// checkToken refuses tokens that are guessable or cannot travel in an
// Authorization header unchanged.
func checkToken(token string) error {
	if len(token) < MinTokenBytes {
		return fmt.Errorf("the bearer token is %d bytes; use at least %d random bytes (for example the output of `openssl rand -hex 32`)", len(token), MinTokenBytes)
	}
	for i := 0; i < len(token); i++ {
		if c := token[i]; c <= ' ' || c > '~' {
			return errors.New("the bearer token has a space, control or non-ASCII byte; use visible ASCII only (for example the output of `openssl rand -hex 32`)")
		}
	}
	return nil
}

// bearer requires "Authorization: Bearer <token>" on every request. It keeps
// only the token's digest: comparing digests in constant time hides both the
// token's bytes and its length from a timing observer.
type bearer struct {
	digest [sha256.Size]byte
	logger *slog.Logger
}

func newBearer(token string, logger *slog.Logger) *bearer {
	return &bearer{digest: sha256.Sum256([]byte(token)), logger: logger}
}

func (b *bearer) valid(token string) bool {
	d := sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(d[:], b.digest[:]) == 1
}

// handler refuses unauthenticated requests with a 401 that says what is
// wrong, and hands the rest to the SDK's bearer middleware, which puts the
// principal where tool handlers (RequestExtra.TokenInfo) and the SDK's
// session binding find it.
func (b *bearer) handler(next http.Handler) http.Handler {
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if !b.valid(token) { // the check below ran first, but this layer does not rely on it
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: tokenPrincipal}, nil
	}
	inner := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code, msg := b.refusal(r.Header.Get("Authorization")); code != "" {
			b.logger.Info("refused an HTTP request without a valid bearer token", "remote", r.RemoteAddr, "method", r.Method, "path", r.URL.Path, "error", code)
			unauthorized(w, code, msg)
			return
		}
		inner.ServeHTTP(w, r)
	})
}

// refusal says why an Authorization header value does not authenticate: an
// RFC 6750 error code ("" when it does) and a message for the operator.
func (b *bearer) refusal(header string) (code, msg string) {
	header = strings.TrimSpace(header)
	if header == "" {
		return "unauthorized", "this server requires a bearer token: send Authorization: Bearer <token>"
	}
	scheme, token, _ := strings.Cut(header, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "unauthorized", "the Authorization header must use the Bearer scheme: Authorization: Bearer <token>"
	}
	if token = strings.TrimSpace(token); token == "" || strings.ContainsAny(token, " \t") || !b.valid(token) {
		return "invalid_token", "the bearer token is not valid"
	}
	return "", ""
}

// unauthorized writes a 401 with a Bearer challenge (and the RFC 6750 error
// for a token that was sent but is wrong) and a JSON body in the OAuth shape.
func unauthorized(w http.ResponseWriter, code, msg string) {
	challenge := `Bearer realm="codemode"`
	if code == "invalid_token" {
		challenge += `, error="invalid_token"`
	}
	w.Header().Set("WWW-Authenticate", challenge)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusUnauthorized)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": msg})
}
