package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/tool"
)

const testToken = "0123456789abcdef-test-token"

// bearerTransport adds an Authorization header to every request, as a
// client configured with a static header does.
type bearerTransport struct{ header string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", b.header)
	return http.DefaultTransport.RoundTrip(r)
}

func bearerClient(header string) *http.Client {
	return &http.Client{Transport: bearerTransport{header}}
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

func TestBearerTokenRefusals(t *testing.T) {
	f := newFixture(t, `true`)
	url := f.httpWith(t, &Options{Token: testToken})
	for _, tc := range []struct {
		name, path, auth string
		wantError        string // the body's error; "" means authenticated
	}{
		{"no header", "/mcp", "", "unauthorized"},
		{"wrong scheme", "/mcp", "Basic " + testToken, "unauthorized"},
		{"scheme only", "/mcp", "Bearer", "invalid_token"},
		{"empty token", "/mcp", "Bearer  ", "invalid_token"},
		{"wrong token", "/mcp", "Bearer " + testToken + "x", "invalid_token"},
		{"a prefix of the token", "/mcp", "Bearer " + testToken[:len(testToken)-1], "invalid_token"},
		{"two tokens", "/mcp", "Bearer " + testToken + " " + testToken, "invalid_token"},
		{"other path, no header", "/other", "", "unauthorized"},
		{"right token", "/mcp", "Bearer " + testToken, ""},
		{"scheme in another case", "/mcp", "bearer " + testToken, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", strings.TrimSuffix(url, "/mcp")+tc.path, strings.NewReader(initializeBody))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if tc.wantError == "" {
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("status %d, want 200", resp.StatusCode)
				}
				return
			}
			var body map[string]string
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("status %d, body is not JSON: %v", resp.StatusCode, err)
			}
			if resp.StatusCode != http.StatusUnauthorized || body["error"] != tc.wantError || body["error_description"] == "" {
				t.Errorf("status %d body %v, want 401 with error %q and a description", resp.StatusCode, body, tc.wantError)
			}
			if ch := resp.Header.Get("WWW-Authenticate"); !strings.HasPrefix(ch, "Bearer ") {
				t.Errorf("WWW-Authenticate %q", ch)
			}
		})
	}
}

// whoami is a runtime whose one tool returns the agent of its call's scope,
// which carries the authenticated principal.
func whoami(t *testing.T) *fixture {
	rt, err := host.New(context.Background(), &host.Options{CodeMode: &host.Config{Enabled: true}, Tools: []tool.Tool{{
		Name: "whoami", Description: "The caller.", InputSchema: json.RawMessage(`{"type":"object"}`),
		Execute: func(ctx context.Context, c tool.Call) (tool.Result, error) {
			return tool.Result{Details: c.Scope.AgentID}, nil
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rt.Close(context.Background()) })
	return &fixture{rt: rt}
}

func TestBearerTokenWithTheSDKClient(t *testing.T) {
	f := whoami(t)
	url := f.httpWith(t, &Options{Token: testToken})
	ctx := context.Background()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	for name, hc := range map[string]*http.Client{"no header": http.DefaultClient, "wrong token": bearerClient("Bearer " + strings.Repeat("x", 32))} {
		if cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil); err == nil {
			cs.Close()
			t.Errorf("%s: connected", name)
		}
	}
	cs := connect(t, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: bearerClient("Bearer " + testToken)}, nil)
	defer cs.Close()
	res, r := call(t, ctx, cs, "exec", map[string]string{"code": `return await tools.callValue("openclaw:core:whoami", {})`})
	if res.IsError || r["value"] != tokenPrincipal {
		t.Fatalf("exec with the token: %v", r)
	}

	// Without a token there is no principal.
	open := connect(t, &sdk.StreamableClientTransport{Endpoint: f.http(t)}, nil)
	defer open.Close()
	if res, r := call(t, ctx, open, "exec", map[string]string{"code": `return await tools.callValue("openclaw:core:whoami", {})`}); res.IsError || r["value"] != "" {
		t.Fatalf("exec without a token: %v", r)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		addr, token string
		want        string // a substring of the error; "" means valid
	}{
		{"", "", ""},
		{":0", "", ""},
		{"127.0.0.1:8080", "", ""},
		{"127.1.2.3:0", "", ""},
		{"localhost:0", "", ""},
		{"[::1]:0", "", ""},
		{"0.0.0.0:8080", "", "not loopback"},
		{"[::]:0", "", "not loopback"},
		{"192.0.2.1:0", "", "not loopback"},
		{"example.com:80", "", "not loopback"},
		{"0.0.0.0:8080", testToken, ""},
		{"127.0.0.1:0", "short", "is 5 bytes"},
		{"", "short", "is 5 bytes"},
		{"127.0.0.1:0", testToken + " x", "space"},
		{"127.0.0.1:0", testToken + "\n", "control"},
		{"127.0.0.1:0", testToken + "é", "non-ASCII"},
		{"no-port", "", "address"},
	} {
		err := (&Options{HTTPAddr: tc.addr, Token: tc.token}).Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q %q: %v", tc.addr, tc.token, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q %q: error %v, want one with %q", tc.addr, tc.token, err, tc.want)
		case tc.want == "not loopback" && !errors.Is(err, ErrTokenRequired):
			t.Errorf("%q: %v is not ErrTokenRequired", tc.addr, err)
		}
	}
	if (*Options)(nil).Validate() != nil {
		t.Error("nil options are invalid")
	}
	// Stateless, every caller with the token is one scope: without a token
	// every caller would be, and wait could refuse no one.
	if err := (&Options{HTTPAddr: "127.0.0.1:0", Stateless: true}).Validate(); !errors.Is(err, ErrStatelessToken) {
		t.Errorf("stateless without a token: %v", err)
	}
	if err := (&Options{Stateless: true, Token: testToken}).Validate(); err == nil || !strings.Contains(err.Error(), "only to HTTP") {
		t.Errorf("stateless on stdio: %v", err)
	}
	if err := (&Options{HTTPAddr: "127.0.0.1:0", Stateless: true, Token: testToken}).Validate(); err != nil {
		t.Errorf("stateless with a token: %v", err)
	}
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	f := newFixture(t, `true`)
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		// It returns before listening, so there is nothing to cancel.
		if err := Serve(context.Background(), f.rt, &Options{HTTPAddr: addr}); !errors.Is(err, ErrTokenRequired) {
			t.Errorf("Serve %s: %v, want ErrTokenRequired", addr, err)
		}
	}
	if err := Serve(context.Background(), f.rt, &Options{HTTPAddr: "127.0.0.1:0", Token: "short"}); err == nil || !strings.Contains(err.Error(), "16") {
		t.Errorf("Serve with a short token: %v", err)
	}
}
