package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/auth/extauth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"
)

// OAuth configures authorization to a streamable HTTP server that answers
// 401 (MCP authorization, 2025-11-25): the server's protected-resource and
// authorization-server metadata are discovered, a client is chosen (a
// client id metadata document, a pre-registered client, or dynamic
// registration, in that order) and a token obtained; a 403 naming
// insufficient_scope asks again for the union of the scopes.
type OAuth struct {
	// ClientID and ClientSecret name a client registered with the
	// authorization server beforehand; ClientSecret is empty for a public
	// client. Without them the client registers itself dynamically.
	ClientID     string
	ClientSecret string
	// ClientMetadataURL is an https URL of a client id metadata document,
	// used as the client id where the authorization server supports them.
	ClientMetadataURL string
	// ClientCredentials uses the client credentials grant (machine to
	// machine, no person) with ClientID and ClientSecret instead of the
	// authorization code grant.
	ClientCredentials bool
	// Scopes, when set, are requested instead of those the server names.
	Scopes []string
	// RedirectPort is the loopback port the authorization server redirects
	// the browser to (http://127.0.0.1:PORT/callback); zero picks a free
	// port when the client starts. Set it for an authorization server that
	// registers exact redirect URIs.
	RedirectPort int
	// Visit sends the person to the authorization URL: open a browser, print
	// it, or (non-interactive) fetch it and follow its redirects; see
	// [FollowRedirects]. The code comes back on the loopback redirect. Nil
	// means the URL is logged and nothing else.
	Visit func(ctx context.Context, authURL string) error
	// TokenFile keeps the tokens (and the client they were issued to)
	// across restarts, written with mode 0600; empty keeps them in memory.
	TokenFile string
	// HTTPClient makes the metadata, registration and token requests; nil
	// means http.DefaultClient.
	HTTPClient *http.Client
}

// authorizeWait bounds how long a connection waits for a person to finish
// authorizing in a browser, past the usual CallTimeout.
const authorizeWait = 5 * time.Minute

// FollowRedirects is an [OAuth] Visit for CI and other places without a
// person: it fetches the authorization URL and follows its redirects, which
// works with an authorization server that grants without asking (a test
// server, or one that already knows the client). The last redirect reaches
// the loopback listener, which takes the code.
func FollowRedirects(client *http.Client) func(context.Context, string) error {
	if client == nil {
		client = http.DefaultClient
	}
	return func(ctx context.Context, authURL string) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		if err != nil {
			return err
		}
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("following the authorization URL: %w", err)
		}
		resp.Body.Close()
		if end := resp.Request.URL; end.Hostname() != "127.0.0.1" || end.Path != "/callback" {
			return fmt.Errorf("the authorization URL ended at %s (%s) instead of redirecting back; it needs a person in a browser", end.Redacted(), resp.Status)
		}
		return nil
	}
}

// oauthHandler builds the SDK's handler for cfg; redirect is the loopback
// redirect URL picked when the client started.
func oauthHandler(name string, cfg *OAuth, redirect string, logger *slog.Logger) (auth.OAuthHandler, error) {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	if cfg.ClientCredentials {
		if cfg.ClientID == "" || cfg.ClientSecret == "" {
			return nil, errors.New("oauth: the client credentials grant needs a client id and a client secret")
		}
		return extauth.NewClientCredentialsHandler(&extauth.ClientCredentialsHandlerConfig{
			Credentials: &oauthex.ClientCredentials{ClientID: cfg.ClientID,
				ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: cfg.ClientSecret}},
			HTTPClient: hc,
		})
	}
	store := &tokenStore{path: cfg.TokenFile, logger: logger}
	hcfg := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              redirect,
		AuthorizationCodeFetcher: fetcher(name, redirect, cfg.Visit, logger),
		RequestRefreshToken:      true,
		Client:                   hc,
		NewTokenSource: func(ctx context.Context, c *oauth2.Config, t *oauth2.Token) (oauth2.TokenSource, error) {
			return store.source(ctx, c, t), nil
		},
		InitialTokenSource: store.load(hc),
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{
				RedirectURIs:  []string{redirect},
				ClientName:    "codemode",
				GrantTypes:    []string{"authorization_code", "refresh_token"},
				ResponseTypes: []string{"code"},
			},
		},
	}
	if cfg.ClientMetadataURL != "" {
		hcfg.ClientIDMetadataDocumentConfig = &auth.ClientIDMetadataDocumentConfig{URL: cfg.ClientMetadataURL}
	}
	if cfg.ClientID != "" {
		pre := &oauthex.ClientCredentials{ClientID: cfg.ClientID}
		if cfg.ClientSecret != "" {
			pre.ClientSecretAuth = &oauthex.ClientSecretAuth{ClientSecret: cfg.ClientSecret}
		}
		hcfg.PreregisteredClient = pre
		// A configured client is the one to use: registering another
		// behind the operator's back would hide a misconfiguration.
		hcfg.DynamicClientRegistrationConfig = nil
	}
	if len(cfg.Scopes) > 0 {
		scopes := append([]string(nil), cfg.Scopes...)
		hcfg.ScopeFilter = func([]string) []string { return scopes }
	}
	return auth.NewAuthorizationCodeHandler(hcfg)
}

// redirectURL picks the loopback redirect for a server: port, or a free one
// now (it is listened on again only while an authorization is under way).
func redirectURL(port int) (string, error) {
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return "", fmt.Errorf("oauth: picking a loopback port for the redirect: %w", err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/callback", nil
}

// fetcher listens on the redirect URL, sends the person to the authorization
// URL and waits for the redirect that carries the code.
func fetcher(name, redirect string, visit func(context.Context, string) error, logger *slog.Logger) auth.AuthorizationCodeFetcher {
	var one sync.Mutex // one authorization at a time holds the port
	return func(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
		if err := checkAuthorizationURL(args.URL); err != nil {
			return nil, err
		}
		one.Lock()
		defer one.Unlock()
		addr := redirect[len("http://"):]
		addr = addr[:len(addr)-len("/callback")]
		l, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("oauth: listening for the authorization redirect on %s: %w", addr, err)
		}
		got := make(chan *auth.AuthorizationResult, 1)
		failed := make(chan error, 1)
		srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/callback" {
				http.NotFound(w, r)
				return
			}
			q := r.URL.Query()
			if e := q.Get("error"); e != "" {
				msg := "authorization refused: " + e
				if d := q.Get("error_description"); d != "" {
					msg += ": " + d
				}
				select {
				case failed <- errors.New(msg):
				default:
				}
				fmt.Fprintf(w, "<p>codemode: %s. You can close this window.</p>", html.EscapeString(msg))
				return
			}
			if q.Get("code") == "" {
				http.Error(w, "no authorization code", http.StatusBadRequest)
				return
			}
			select {
			case got <- &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}:
			default:
			}
			fmt.Fprint(w, "<p>codemode is authorized. You can close this window.</p>")
		})}
		go srv.Serve(l)
		defer srv.Close()

		logger.Warn("MCP server needs authorization; open this URL to grant it", "server", name, "url", args.URL)
		if visit != nil {
			if err := visit(ctx, args.URL); err != nil {
				return nil, fmt.Errorf("oauth: %w", err)
			}
		}
		select {
		case r := <-got:
			return r, nil
		case err := <-failed:
			return nil, fmt.Errorf("oauth: %w", err)
		case <-ctx.Done():
			return nil, fmt.Errorf("oauth: no authorization arrived on %s: %w", redirect, ctx.Err())
		}
	}
}

// checkAuthorizationURL refuses an authorization URL that is not a web
// page: it comes from the server's metadata, and a browser opener or the
// redirect follower handed file:, javascript: or a custom scheme would do
// what the server says, not what the person wants. Plain http is for
// loopback servers only.
func checkAuthorizationURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("oauth: the authorization URL does not parse: %w", err)
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && isLoopback(u.Hostname()):
		return nil
	}
	return fmt.Errorf("oauth: the authorization server's URL %q is neither https nor http on loopback; refusing to open it", u.Redacted())
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// tokenStore keeps a server's token and the client it was issued to in a
// file, so a restart does not ask the person again. Every token the source
// hands out (a refresh makes a new one) is written back.
type tokenStore struct {
	path   string
	logger *slog.Logger
	mu     sync.Mutex
}

// savedToken is the file's content: enough to refresh the token.
type savedToken struct {
	ClientID     string        `json:"client_id"`
	ClientSecret string        `json:"client_secret,omitempty"`
	TokenURL     string        `json:"token_url"`
	AuthStyle    int           `json:"auth_style,omitempty"`
	Scopes       []string      `json:"scopes,omitempty"`
	Token        *oauth2.Token `json:"token"`
}

// load returns the saved token's source, or nil (authorize on the first
// 401) when there is none or it can no longer be used.
func (s *tokenStore) load(hc *http.Client) oauth2.TokenSource {
	if s.path == "" {
		return nil
	}
	data, err := os.ReadFile(s.path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			s.logger.Warn("OAuth token cache unreadable; authorizing again", "file", s.path, "error", err)
		}
		return nil
	}
	var saved savedToken
	if err := json.Unmarshal(data, &saved); err != nil || saved.Token == nil || saved.ClientID == "" || saved.TokenURL == "" {
		s.logger.Warn("OAuth token cache is not a saved token; authorizing again", "file", s.path)
		return nil
	}
	if !saved.Token.Valid() && saved.Token.RefreshToken == "" {
		return nil
	}
	c := &oauth2.Config{ClientID: saved.ClientID, ClientSecret: saved.ClientSecret, Scopes: saved.Scopes,
		Endpoint: oauth2.Endpoint{TokenURL: saved.TokenURL, AuthStyle: oauth2.AuthStyle(saved.AuthStyle)}}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, hc)
	return s.source(ctx, c, saved.Token)
}

// source wraps c's token source so that each new token is saved, and so
// that a token that expired with no way to refresh it is no token at all:
// the request then gets its 401 and authorization starts again, where the
// oauth2 package's error would fail every request.
func (s *tokenStore) source(ctx context.Context, c *oauth2.Config, t *oauth2.Token) oauth2.TokenSource {
	return &savingSource{store: s, config: c, inner: c.TokenSource(ctx, t), last: t}
}

type savingSource struct {
	store  *tokenStore
	config *oauth2.Config
	inner  oauth2.TokenSource
	mu     sync.Mutex
	last   *oauth2.Token
	saved  bool
}

func (s *savingSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.last.Valid() && s.last.RefreshToken == "" {
		return nil, nil
	}
	t, err := s.inner.Token()
	if err != nil {
		return nil, err
	}
	if !s.saved || t.AccessToken != s.last.AccessToken {
		s.last, s.saved = t, true
		s.store.save(s.config, t)
	}
	return t, nil
}

func (s *tokenStore) save(c *oauth2.Config, t *oauth2.Token) {
	if s.path == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	data, err := json.MarshalIndent(savedToken{ClientID: c.ClientID, ClientSecret: c.ClientSecret,
		TokenURL: c.Endpoint.TokenURL, AuthStyle: int(c.Endpoint.AuthStyle), Scopes: c.Scopes, Token: t}, "", "  ")
	if err == nil {
		err = writePrivate(s.path, data)
	}
	if err != nil {
		s.logger.Warn("OAuth token not saved; the next start authorizes again", "file", s.path, "error", err)
	}
}

// writePrivate writes data readable by this user only, through a temporary
// file so that a reader never sees half a token.
func writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".token-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
