package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// authServer is a loopback authorization server and the MCP server it
// protects: discovery, dynamic registration, an /authorize that grants at
// once (as a person who already agreed would), PKCE-checked codes and
// refresh tokens. It counts what it was asked.
type authServer struct {
	*httptest.Server
	mu      sync.Mutex
	clients map[string]string // client id -> redirect URI
	codes   map[string]string // code -> PKCE challenge
	tokens  map[string]bool   // live access tokens
	refresh map[string]bool
	counts  map[string]int // "authorize", "register", "authorization_code", "refresh_token"
	seq     int
}

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{clients: map[string]string{}, codes: map[string]string{}, tokens: map[string]bool{},
		refresh: map[string]bool{}, counts: map[string]int{}}
	mux := http.NewServeMux()
	a.Server = httptest.NewServer(mux)
	t.Cleanup(a.Close)
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(
		&oauthex.ProtectedResourceMetadata{Resource: a.URL + "/mcp", AuthorizationServers: []string{a.URL}, ScopesSupported: []string{"tools"}}))
	mux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"issuer": a.URL, "authorization_endpoint": a.URL + "/authorize",
			"token_endpoint": a.URL + "/token", "registration_endpoint": a.URL + "/register",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
			"token_endpoint_auth_methods_supported": []string{"none"}})
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var m oauthex.ClientRegistrationMetadata
		json.NewDecoder(r.Body).Decode(&m)
		id := a.next("client")
		a.mu.Lock()
		a.counts["register"]++
		a.clients[id] = m.RedirectURIs[0]
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"client_id": id, "redirect_uris": m.RedirectURIs, "token_endpoint_auth_method": "none"})
	})
	mux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		a.mu.Lock()
		a.counts["authorize"]++
		redirect, ok := a.clients[q.Get("client_id")]
		a.mu.Unlock()
		if !ok || redirect != q.Get("redirect_uri") || q.Get("code_challenge_method") != "S256" {
			http.Error(w, "bad authorization request", http.StatusBadRequest)
			return
		}
		code := a.next("code")
		a.mu.Lock()
		a.codes[code] = q.Get("code_challenge")
		a.mu.Unlock()
		http.Redirect(w, r, redirect+"?code="+code+"&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		grant := r.Form.Get("grant_type")
		a.mu.Lock()
		a.counts[grant]++
		ok := false
		switch grant {
		case "authorization_code":
			sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
			challenge, found := a.codes[r.Form.Get("code")]
			ok = found && challenge == base64.RawURLEncoding.EncodeToString(sum[:])
			delete(a.codes, r.Form.Get("code"))
		case "refresh_token":
			ok = a.refresh[r.Form.Get("refresh_token")]
		}
		a.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(map[string]string{"error": "invalid_grant"})
			return
		}
		access, refresh := a.next("access"), a.next("refresh")
		a.mu.Lock()
		a.tokens[access], a.refresh[refresh] = true, true
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"access_token": access, "token_type": "Bearer",
			"refresh_token": refresh, "expires_in": 3600})
	})
	verify := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		if !a.tokens[token] {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Scopes: []string{"tools"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	mcpHandler := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return newTestServer() }, nil)
	mux.Handle("/mcp", auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{
		ResourceMetadataURL: a.URL + "/.well-known/oauth-protected-resource/mcp"})(mcpHandler))
	return a
}

func (a *authServer) next(kind string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	return fmt.Sprintf("%s-%d", kind, a.seq)
}

func (a *authServer) count(what string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.counts[what]
}

// TestOAuthFlowThenCachedToken connects to an OAuth-protected server with
// no person (redirects followed), registering dynamically, then again from
// the cached token, then from a refresh when the cached token has expired.
func TestOAuthFlowThenCachedToken(t *testing.T) {
	a := newAuthServer(t)
	file := filepath.Join(t.TempDir(), "oauth", "test.json")
	cfg := func() *Options {
		return &Options{Servers: map[string]ServerConfig{"locked": {URL: a.URL + "/mcp",
			OAuth: &OAuth{Visit: FollowRedirects(nil), TokenFile: file}}}}
	}

	c := start(t, cfg())
	if names := toolNames(c); !slices.Contains(names, "echo") {
		t.Fatalf("tools after authorizing: %v", names)
	}
	c.Close()
	if got := [3]int{a.count("register"), a.count("authorize"), a.count("authorization_code")}; got != [3]int{1, 1, 1} {
		t.Fatalf("register, authorize, code exchange = %v, want one each", got)
	}
	info, err := os.Stat(file)
	if err != nil {
		t.Fatalf("token not cached: %v", err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", info.Mode().Perm())
	}

	c = start(t, cfg())
	if names := toolNames(c); !slices.Contains(names, "echo") {
		t.Fatalf("tools from the cached token: %v", names)
	}
	c.Close()
	if a.count("authorize") != 1 || a.count("register") != 1 {
		t.Fatalf("the cached token was not used: %d authorizations, %d registrations", a.count("authorize"), a.count("register"))
	}

	// The cached token expires: the refresh token gets a new one, which is
	// cached in its place.
	var saved savedToken
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &saved); err != nil {
		t.Fatal(err)
	}
	old := saved.Token.AccessToken
	saved.Token.Expiry = time.Now().Add(-time.Hour)
	data, _ = json.Marshal(saved)
	os.WriteFile(file, data, 0o600)
	c = start(t, cfg())
	if names := toolNames(c); !slices.Contains(names, "echo") {
		t.Fatalf("tools after a refresh: %v", names)
	}
	c.Close()
	if a.count("refresh_token") != 1 || a.count("authorize") != 1 {
		t.Fatalf("refreshes %d, authorizations %d; want one refresh and no new authorization", a.count("refresh_token"), a.count("authorize"))
	}
	data, _ = os.ReadFile(file)
	json.Unmarshal(data, &saved)
	if saved.Token.AccessToken == old {
		t.Error("the refreshed token was not cached")
	}
}

// TestOAuthRefusedAndUnusableCache: a refused authorization is an error
// that says so, and a cache file that is not a token is replaced, not
// trusted.
func TestOAuthRefusedAndUnusableCache(t *testing.T) {
	a := newAuthServer(t)
	file := filepath.Join(t.TempDir(), "token.json")
	os.WriteFile(file, []byte(`{"token": "not a token"`), 0o600)
	refuse := func(ctx context.Context, authURL string) error {
		u, _ := url.Parse(authURL)
		resp, err := http.Get(u.Query().Get("redirect_uri") + "?error=access_denied&error_description=no+thanks")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	logger, logs := captureLogs()
	c := start(t, &Options{Logger: logger, Servers: map[string]ServerConfig{"locked": {URL: a.URL + "/mcp",
		OAuth: &OAuth{Visit: refuse, TokenFile: file}}}})
	if names := toolNames(c); len(names) != 0 {
		t.Fatalf("tools without authorization: %v", names)
	}
	c.Close()
	for _, want := range []string{"authorization refused: access_denied: no thanks", "OAuth token cache is not a saved token"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// TestFollowRedirectsNeedsARedirectBack: an authorization page that wants a
// person is reported as such, at once, instead of waiting for a code.
func TestFollowRedirectsNeedsARedirectBack(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<form>sign in</form>") }))
	defer page.Close()
	err := FollowRedirects(nil)(context.Background(), page.URL+"/authorize?client_id=x")
	if err == nil || !strings.Contains(err.Error(), "needs a person in a browser") {
		t.Fatalf("err = %v", err)
	}
}

func TestOAuthConfigErrors(t *testing.T) {
	for _, c := range []struct {
		cfg  ServerConfig
		want string
	}{
		{ServerConfig{Command: "x", OAuth: &OAuth{}}, "oauth applies only to a streamable HTTP url"},
		{ServerConfig{URL: "http://127.0.0.1:1/sse", SSE: true, OAuth: &OAuth{}}, "oauth applies only to a streamable HTTP url"},
		{ServerConfig{URL: "http://127.0.0.1:1/mcp", OAuth: &OAuth{ClientCredentials: true, ClientID: "a"}}, "needs a client id and a client secret"},
		{ServerConfig{URL: "http://127.0.0.1:1/mcp", OAuth: &OAuth{ClientMetadataURL: "http://example.com/c.json"}}, "non-root HTTPS URL"},
	} {
		_, err := Start(context.Background(), &Options{Servers: map[string]ServerConfig{"s": c.cfg}})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.cfg, err, c.want)
		}
	}
}

// Attacks by the server or a page: an authorization URL that is not a web
// page is never opened, and a redirect whose state is not the one sent is
// refused.
func TestOAuthRefusesForgedURLsAndState(t *testing.T) {
	visited := false
	visit := func(context.Context, string) error { visited = true; return nil }
	fetch := fetcher("s", "http://127.0.0.1:1/callback", visit, slog.New(slog.DiscardHandler))
	for _, u := range []string{"file:///etc/passwd", "javascript:alert(1)", "http://auth.example.com/authorize", "vscode://x", "https:///nohost"} {
		if _, err := fetch(context.Background(), &auth.AuthorizationArgs{URL: u}); err == nil || !strings.Contains(err.Error(), "refusing to open it") {
			t.Errorf("%s: err = %v", u, err)
		}
	}
	if visited {
		t.Fatal("a refused URL was visited")
	}

	a := newAuthServer(t)
	forge := func(ctx context.Context, authURL string) error {
		u, _ := url.Parse(authURL)
		resp, err := http.Get(u.Query().Get("redirect_uri") + "?code=stolen&state=forged")
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	logger, logs := captureLogs()
	c := start(t, &Options{Logger: logger, Servers: map[string]ServerConfig{"locked": {URL: a.URL + "/mcp", OAuth: &OAuth{Visit: forge}}}})
	if names := toolNames(c); len(names) != 0 {
		t.Fatalf("tools after a forged redirect: %v", names)
	}
	c.Close()
	if !strings.Contains(logs.String(), "state mismatch") || a.count("authorization_code") != 0 {
		t.Errorf("a forged state reached the token endpoint (%d exchanges):\n%s", a.count("authorization_code"), logs.String())
	}
}
