package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestServeStdio drives "codemode serve" in-process with the SDK's client
// over a pair of pipes, as an MCP client would over the process's stdio.
func TestServeStdio(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"serve"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range lt.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); got != "chart_image,exec,wait" && got != "exec,wait,chart_image" {
		t.Errorf("tools = %s", got)
	}

	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `const r = await MCP.docs.searchDocs({ query: "shipping" }); return r.structuredContent.pages.length`}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	var result struct {
		Status string
		Value  json.RawMessage
	}
	if json.Unmarshal(b, &result) != nil || result.Status != "completed" || string(result.Value) != "2" {
		t.Errorf("exec result = %s", b)
	}

	// The docs server declares no output schema: after three calls its
	// declaration shows what it returned (tools.learnShapes).
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `await MCP.docs.searchDocs({ query: "on-call" }); await MCP.docs.searchDocs({ query: "x" }); return 1`}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{
		"code": `const d = await API.read("mcp/docs.d.ts"); return d.split("\n").find((l) => l.includes("@returns")) ?? d`}})
	b, _ = json.Marshal(res.StructuredContent)
	if err != nil || !strings.Contains(string(b), "@returns observed in 3 calls: structuredContent is { pages: {") {
		t.Errorf("the docs declaration after three calls: %v %s", err, b)
	}

	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "chart_image", Arguments: map[string]any{}})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("chart_image: %v %+v", err, res)
	}
	if img, ok := res.Content[0].(*sdk.ImageContent); !ok || img.MIMEType != "image/png" || len(img.Data) == 0 {
		t.Errorf("chart_image content = %#v", res.Content[0])
	}

	cs.Close()
	inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("serve exit %d: %s", code, stderr.String())
		}
	case <-ctx.Done():
		t.Fatal("serve did not end when its input closed")
	}
}

// noTokenEnv unsets $CODEMODE_TOKEN for one test, whatever the shell that
// runs the tests has; t.Setenv restores it afterwards.
func noTokenEnv(t *testing.T) {
	t.Setenv(tokenEnv, "")
	os.Unsetenv(tokenEnv)
}

// freeAddr is a loopback address nothing listens on right now.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// serveHTTP runs "codemode serve --http ADDR args..." in-process and
// connects the SDK's client with hc; it returns the session and a function
// that stops the server and returns its exit status and stderr.
func serveHTTP(t *testing.T, hc *http.Client, args ...string) (*sdk.ClientSession, func() (int, string)) {
	t.Helper()
	addr := freeAddr(t)
	for i, a := range args[:max(0, len(args)-1)] { // the caller's --http, which wins
		if a == "--http" {
			addr = args[i+1]
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--http", addr}, args...), strings.NewReader(""), io.Discard, &stderr)
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil)
	var cs *sdk.ClientSession
	var err error
	for range 100 { // until the server listens
		cs, err = client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: hc, MaxRetries: -1}, nil)
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		cancel()
		<-done
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	var once sync.Once
	var code int
	stop := func() (int, string) {
		once.Do(func() {
			cs.Close()
			cancel()
			code = <-done
		})
		return code, stderr.String()
	}
	t.Cleanup(func() { stop() }) // a failed test must not leave the server running
	return cs, stop
}

func TestServeHTTP(t *testing.T) {
	noTokenEnv(t)
	cs, stop := serveHTTP(t, http.DefaultClient)
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "return 6 * 7"}})
	if err != nil || res.IsError {
		t.Fatalf("exec: %v %+v", err, res)
	}
	code, stderr := stop()
	if code != 0 {
		t.Errorf("serve exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "http://127.0.0.1:") || !strings.Contains(stderr, "/mcp") || !strings.Contains(stderr, "without a bearer token") {
		t.Errorf("stderr does not name the URL and the missing token: %s", stderr)
	}
}

// headerClient sends Authorization: value on every request.
type headerClient string

func (h headerClient) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", string(h))
	return http.DefaultTransport.RoundTrip(r)
}

func TestServeHTTPWithToken(t *testing.T) {
	noTokenEnv(t)
	const token = "s3cret-token-0123456789"
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(token+"\n"), 0o600); err != nil { // echo's newline is not part of it
		t.Fatal(err)
	}
	for name, args := range map[string][]string{"--token-file": {"--token-file", file, "--session-idle", "1h"}, "$" + tokenEnv: nil} {
		t.Run(name, func(t *testing.T) {
			if args == nil {
				t.Setenv(tokenEnv, token)
			}
			cs, stop := serveHTTP(t, &http.Client{Transport: headerClient("Bearer " + token)}, args...)
			res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "exec", Arguments: map[string]any{"code": "return 6 * 7"}})
			if err != nil || res.IsError {
				t.Fatalf("exec: %v %+v", err, res)
			}
			if code, stderr := stop(); code != 0 || !strings.Contains(stderr, "bearer token") {
				t.Errorf("serve exit %d: %s", code, stderr)
			}
		})
	}
}

func TestServeHTTPRefusesRequestsWithoutTheToken(t *testing.T) {
	noTokenEnv(t)
	t.Setenv(tokenEnv, "s3cret-token-0123456789")
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--http", addr}, strings.NewReader(""), io.Discard, &stderr)
	}()
	var resp *http.Response
	var err error
	for range 100 { // until the server listens
		resp, err = http.Post("http://"+addr+"/mcp", "application/json", strings.NewReader(`{}`))
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		cancel()
		<-done
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("without the token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve exit %d: %s", code, stderr.String())
	}
}

// Configuration the server refuses before it listens: each exits 2 with a
// message that says what to fix.
func TestServeHTTPConfigurationErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty, blank, short := write("empty", ""), write("blank", " \n\t\n"), write("short", "abc123\n")
	spaced := write("spaced", "s3cret token 0123456789\n")
	for _, tc := range []struct {
		name string
		env  *string // $CODEMODE_TOKEN, nil for unset
		args []string
		want string
	}{
		{"non-loopback without a token", nil, []string{"--http", "0.0.0.0:0"}, "not loopback"},
		{"non-loopback IPv6 without a token", nil, []string{"--http", "[::]:0"}, "--token-file"},
		{"empty token file", nil, []string{"--http", "127.0.0.1:0", "--token-file", empty}, "--token-file " + empty + ": the bearer token is empty"},
		{"whitespace token file", nil, []string{"--http", "127.0.0.1:0", "--token-file", blank}, "is empty"},
		{"short token file", nil, []string{"--http", "0.0.0.0:0", "--token-file", short}, "is 6 bytes; use at least 16"},
		{"token with a space", nil, []string{"--http", "127.0.0.1:0", "--token-file", spaced}, "space"},
		{"missing token file", nil, []string{"--http", "127.0.0.1:0", "--token-file", filepath.Join(dir, "nope")}, "no such file"},
		{"empty variable", ptr(""), []string{"--http", "127.0.0.1:0"}, "$" + tokenEnv + ": the bearer token is empty"},
		{"short variable", ptr("abc"), []string{"--http", "0.0.0.0:0"}, "$" + tokenEnv + ": the bearer token is 3 bytes"},
		{"token file without --http", nil, []string{"--token-file", short}, "--token-file applies only with --http"},
		{"session idle without --http", nil, []string{"--session-idle", "1m"}, "--session-idle applies only with --http"},
		{"negative session idle", nil, []string{"--http", "127.0.0.1:0", "--session-idle", "-1s"}, "must not be negative"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noTokenEnv(t)
			if tc.env != nil {
				t.Setenv(tokenEnv, *tc.env)
			}
			_, stderr, code := cli(t, "", append([]string{"serve"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s", code, tc.want, stderr)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// serve answers a client while one server never answers its initialize: the
// client gets exec, and the working server's tools reach it as they come
// (at once, or with a tools/list_changed), long before the stuck server's
// first attempt ends.
func TestServeDoesNotWaitForAStuckServer(t *testing.T) {
	node, modules := peers(t)
	script := filepath.Join(modules, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	cfg := writeFile(t, "c.json", `{"mcpServers": {"stuck": {"command": "sleep", "args": ["600"]},
		"everything": {"command": "`+node+`", "args": ["`+script+`", "stdio"]}}}`)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(ctx, []string{"serve", "--config", cfg}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	changed := make(chan struct{}, 16)
	client := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) { changed <- struct{}{} }})
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	for {
		lt, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		ready := false
		for _, tool := range lt.Tools {
			ready = ready || tool.Name == "exec" && strings.Contains(tool.Description, "MCP.everything")
		}
		if ready {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the working server's tools never arrived\n%s", stderr.String())
		}
	}
	if strings.Contains(stderr.String(), "server=stuck") {
		t.Fatalf("the stuck server's first attempt already ended:\n%s", stderr.String())
	}
	cs.Close()
	cancel()
	<-done
}
