package reliability

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// rrProxy is a loopback reverse proxy in front of codemode serve replicas,
// as a load balancer would be, but deterministic: it reads each request's
// JSON-RPC method and sends a tools/call exec to the replicas in turn, and a
// wait to the replica that did not answer the run's previous leg, so that
// every leg of a run moves to the other replica. Everything else (initialize,
// notifications) goes round robin too. It records which replica served each
// tools/call and what it answered.
type rrProxy struct {
	srv      *httptest.Server
	backends []*httputil.ReverseProxy
	tr       *http.Transport

	mu    sync.Mutex
	next  int            // the replica for the next request routed in turn
	owner map[string]int // a run's id: the replica that answered its latest leg
	calls []proxiedCall
}

// proxiedCall is one tools/call the proxy forwarded.
type proxiedCall struct {
	Backend int    // index of the replica that served it
	Tool    string // exec or wait
	RunID   string // wait: the argument; exec: the answer's, if waiting
	Status  string // the answer's status ("" if none was read)
	Error   string
	Code    string // exec: the cell's code
}

type callKey struct{}

// newRRProxy starts a proxy in front of the replicas at urls (each ending in
// /mcp); it stops when the test ends.
func newRRProxy(t testing.TB, urls ...string) *rrProxy {
	t.Helper()
	p := &rrProxy{owner: map[string]int{}, tr: &http.Transport{}}
	for _, raw := range urls {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		p.backends = append(p.backends, &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(&url.URL{Scheme: u.Scheme, Host: u.Host})
				pr.Out.URL.Path = u.Path
			},
			Transport:      p.tr,
			ModifyResponse: p.record,
		})
	}
	p.srv = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(func() {
		p.srv.Close()
		p.tr.CloseIdleConnections()
	})
	return p
}

// URL is the proxy's MCP endpoint.
func (p *rrProxy) URL() string { return p.srv.URL + "/mcp" }

func (p *rrProxy) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg struct {
		Method string `json:"method"`
		Params struct {
			Name      string `json:"name"`
			Arguments struct {
				Code  string `json:"code"`
				RunID string `json:"runId"`
			} `json:"arguments"`
		} `json:"params"`
	}
	json.Unmarshal(body, &msg) // a GET, DELETE or batch has no method: routed in turn
	p.mu.Lock()
	i := p.next
	routed := msg.Method != "tools/call" || msg.Params.Name != "wait"
	if prev, ok := p.owner[msg.Params.Arguments.RunID]; ok && !routed {
		i = (prev + 1) % len(p.backends)
	} else {
		p.next = (p.next + 1) % len(p.backends)
	}
	p.mu.Unlock()
	if msg.Method == "tools/call" {
		c := &proxiedCall{Backend: i, Tool: msg.Params.Name, RunID: msg.Params.Arguments.RunID, Code: msg.Params.Arguments.Code}
		r = r.WithContext(context.WithValue(r.Context(), callKey{}, c))
	}
	p.backends[i].ServeHTTP(w, r)
}

// record reads a tools/call's whole answer (the stream of a POST ends with
// its response) before the client sees any of it, so that the run's owner
// is known before the client can send the next wait.
func (p *rrProxy) record(resp *http.Response) error {
	c, _ := resp.Request.Context().Value(callKey{}).(*proxiedCall)
	if c == nil {
		return nil
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return err
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	resp.ContentLength = int64(len(b))
	resp.Header.Del("Content-Length")
	var res struct {
		Result struct {
			StructuredContent struct {
				Status string `json:"status"`
				RunID  string `json:"runId"`
				Error  string `json:"error"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	for _, msg := range jsonMessages(resp.Header.Get("Content-Type"), b) {
		if json.Unmarshal(msg, &res) == nil && res.Result.StructuredContent.Status != "" {
			break
		}
	}
	sc := res.Result.StructuredContent
	c.Status, c.Error = sc.Status, sc.Error
	if c.RunID == "" {
		c.RunID = sc.RunID
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c.RunID != "" && sc.Status != "" {
		p.owner[c.RunID] = c.Backend
	}
	p.calls = append(p.calls, *c)
	return nil
}

// jsonMessages are the JSON-RPC messages of a response body: the body
// itself, or the data of each server-sent event.
func jsonMessages(contentType string, b []byte) [][]byte {
	if !strings.HasPrefix(contentType, "text/event-stream") {
		return [][]byte{b}
	}
	var out [][]byte
	var data []byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	for sc.Scan() {
		line := sc.Bytes()
		switch {
		case len(line) == 0:
			if len(data) > 0 {
				out = append(out, data)
			}
			data = nil
		case bytes.HasPrefix(line, []byte("data:")):
			data = append(data, bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("data:")), []byte(" "))...)
		}
	}
	if len(data) > 0 {
		out = append(out, data)
	}
	return out
}

// recorded returns the tools/calls forwarded so far for which keep is true.
func (p *rrProxy) recorded(keep func(proxiedCall) bool) []proxiedCall {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []proxiedCall
	for _, c := range p.calls {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}
