package provider

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fake is a provider on loopback: each request is recorded and answered by
// the next of its steps (the last one repeats).
type fake struct {
	t     testing.TB
	kind  string
	srv   *httptest.Server
	mu    sync.Mutex
	steps []step
	seen  []seen
}

// step is one answer: a status (200 by default), a body (a well-formed
// answer with text and tokens in and out when empty), headers, and
// whether to hang until the client gives up.
type step struct {
	status  int
	body    string
	text    string
	in, out int64
	header  map[string]string
	hang    bool
	block   <-chan struct{} // answers once closed
}

type seen struct {
	header http.Header
	body   map[string]any
	path   string
}

func newFake(t testing.TB, kind string, steps ...step) *fake {
	f := &fake{t: t, kind: kind, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var body map[string]any
	json.Unmarshal(b, &body)
	f.mu.Lock()
	f.seen = append(f.seen, seen{r.Header.Clone(), body, r.URL.Path})
	s := step{}
	if len(f.steps) > 0 {
		s = f.steps[0]
		if len(f.steps) > 1 {
			f.steps = f.steps[1:]
		}
	}
	f.mu.Unlock()
	if s.hang {
		select {
		case <-r.Context().Done():
		case <-time.After(30 * time.Second):
		}
		return
	}
	if s.block != nil {
		<-s.block
	}
	for k, v := range s.header {
		w.Header().Set(k, v)
	}
	if s.body == "" {
		s.body = f.answer(s)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(max(s.status, 200))
	io.WriteString(w, s.body)
}

// answer is a well-formed body of the fake's kind.
func (f *fake) answer(s step) string {
	if s.text == "" {
		s.text = "fine"
	}
	var v any
	if f.kind == Anthropic {
		v = map[string]any{"type": "message", "role": "assistant", "content": []any{map[string]any{"type": "text", "text": s.text}},
			"usage": map[string]any{"input_tokens": s.in, "output_tokens": s.out}}
	} else {
		v = map[string]any{"object": "chat.completion", "choices": []any{map[string]any{"index": 0,
			"message": map[string]any{"role": "assistant", "content": s.text}, "finish_reason": "stop"}},
			"usage": map[string]any{"prompt_tokens": s.in, "completion_tokens": s.out}}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func (f *fake) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.seen...)
}

// client is a client of the fake with cfg's other fields, whose waits
// between attempts are recorded instead of slept.
func (f *fake) client(cfg Config, key string) (*Client, *[]time.Duration) {
	f.t.Helper()
	cfg.Kind, cfg.URL = f.kind, f.srv.URL+"/v1"
	if cfg.Model == "" {
		cfg.Model = "m-default"
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.MaxTokens == 0 {
		cfg.MaxTokens = 100
	}
	c, err := New(&cfg, key, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(c.Close)
	var mu sync.Mutex
	waits := &[]time.Duration{}
	c.sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		defer mu.Unlock()
		*waits = append(*waits, d)
		return ctx.Err()
	}
	return c, waits
}

func ask(prompt string) Request {
	return Request{System: "sys", Messages: []Message{{"user", prompt}}, Cell: "c1", Session: "s1"}
}
