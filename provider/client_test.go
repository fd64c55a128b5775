package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

const testKey = "sk-test-key-that-must-stay-secret-0123456789"

// Both APIs: the request each one is sent, its headers, and the text read
// from its answer.
func TestBothAPIs(t *testing.T) {
	for _, kind := range []string{OpenAI, Anthropic} {
		t.Run(kind, func(t *testing.T) {
			f := newFake(t, kind, step{text: "the answer", in: 10, out: 3})
			c, _ := f.client(Config{}, testKey)
			req := ask("the task")
			req.Messages = append(req.Messages, Message{"assistant", "first try"}, Message{"user", "again"})
			got, err := c.Run(context.Background(), req)
			if err != nil || got != "the answer" {
				t.Fatalf("%q %v", got, err)
			}
			r := f.requests()[0]
			var msgs []any
			for _, m := range r.body["messages"].([]any) {
				mm := m.(map[string]any)
				msgs = append(msgs, mm["role"].(string)+":"+mm["content"].(string))
			}
			want := []any{"user:the task", "assistant:first try", "user:again"}
			switch kind {
			case OpenAI:
				want = append([]any{"system:sys"}, want...)
				if r.path != "/v1/chat/completions" || r.header.Get("Authorization") != "Bearer "+testKey {
					t.Errorf("path %s, auth %q", r.path, r.header.Get("Authorization"))
				}
			case Anthropic:
				if r.path != "/v1/messages" || r.header.Get("x-api-key") != testKey || r.header.Get("anthropic-version") != anthropicVersion || r.body["system"] != "sys" {
					t.Errorf("path %s, headers %v, system %v", r.path, r.header, r.body["system"])
				}
			}
			if !reflect.DeepEqual(msgs, want) || r.body["model"] != "m-default" || r.body["max_tokens"] != 100.0 {
				t.Errorf("sent %v", r.body)
			}
		})
	}
}

// A local server needs no key: none is sent.
func TestNoKey(t *testing.T) {
	f := newFake(t, OpenAI)
	c, _ := f.client(Config{}, "")
	if _, err := c.Run(context.Background(), ask("p")); err != nil {
		t.Fatal(err)
	}
	if h := f.requests()[0].header; h.Get("Authorization") != "" {
		t.Errorf("sent %v", h)
	}
}

// The model: the cell's hint only when the config lists it, else the
// label's, else the default.
func TestModel(t *testing.T) {
	f := newFake(t, Anthropic)
	c, _ := f.client(Config{Model: "base", Models: map[string]string{"rater": "small", "writer": "big"}}, "")
	for _, r := range []struct{ label, hint, want string }{
		{"", "", "base"}, {"rater", "", "small"}, {"rater", "big", "big"}, {"rater", "gpt-expensive", "small"}, {"other", "base", "base"},
	} {
		req := ask("p")
		req.Label, req.Model = r.label, r.hint
		if _, err := c.Run(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		rs := f.requests()
		if got := rs[len(rs)-1].body["model"]; got != r.want {
			t.Errorf("%+v: model %v", r, got)
		}
	}
}

// Answers that cannot be used fail the child with a message that says so,
// and are not retried.
func TestMalformedAnswers(t *testing.T) {
	for _, c := range []struct {
		kind, body, want string
	}{
		{OpenAI, `not json`, "not JSON of the chat completions API"},
		{OpenAI, `{"choices": []}`, "no choices"},
		{OpenAI, `{"choices": [{"message": {"content": null}}]}`, "no text content"},
		{OpenAI, `{"choices": [{"message": {"content": null, "refusal": "I will not"}}]}`, "the model refused: I will not"},
		{Anthropic, `{"content": "nope"}`, "not JSON of the Messages API"},
		{Anthropic, `{"content": [{"type": "tool_use"}]}`, "no text content"},
		{Anthropic, `[1, 2]`, "not JSON of the Messages API"},
	} {
		f := newFake(t, c.kind, step{body: c.body})
		cl, _ := f.client(Config{MaxRetries: 3}, "")
		_, err := cl.Run(context.Background(), ask("p"))
		if err == nil || !strings.Contains(err.Error(), c.want) || len(f.requests()) != 1 {
			t.Errorf("%s %s: %v after %d requests", c.kind, c.body, err, len(f.requests()))
		}
	}
}

// A 4xx is not retried; its message is the provider's, bounded, with the
// key taken out when the provider echoes it.
func TestClientErrors(t *testing.T) {
	long := strings.Repeat("é", 400)
	for _, c := range []struct {
		kind   string
		status int
		body   string
		want   string
	}{
		{OpenAI, 401, `{"error": {"message": "Incorrect API key provided: ` + testKey + `"}}`, "the provider answered 401 Unauthorized: Incorrect API key provided: [key]"},
		{Anthropic, 400, `{"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: too large"}}`, "the provider answered 400 Bad Request: max_tokens: too large"},
		{OpenAI, 404, `{"error": "model not found"}`, "the provider answered 404 Not Found: model not found"},
		{OpenAI, 403, `<html>forbidden</html>`, "the provider answered 403 Forbidden"},
		{OpenAI, 400, `{"error": {"message": "` + long + `"}}`, "…"},
	} {
		f := newFake(t, c.kind, step{status: c.status, body: c.body})
		cl, _ := f.client(Config{MaxRetries: 3}, testKey)
		_, err := cl.Run(context.Background(), ask("p"))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), testKey) || len(err.Error()) > 400 || len(f.requests()) != 1 {
			t.Errorf("%d %s: %v after %d requests", c.status, c.body, err, len(f.requests()))
		}
	}
}

// A provider slower than timeoutMs fails the child; one that cannot be
// reached says so without its URL.
func TestSlowAndUnreachable(t *testing.T) {
	f := newFake(t, OpenAI, step{hang: true})
	c, _ := f.client(Config{Timeout: 50 * time.Millisecond}, "")
	_, err := c.Run(context.Background(), ask("p"))
	if err == nil || err.Error() != "the provider did not answer within tools.swarm.provider.timeoutMs (50 ms)" {
		t.Fatalf("%v", err)
	}
	// The run's end is not a timeout.
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for len(f.requests()) < 2 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	c, _ = f.client(Config{}, "")
	if _, err := c.Run(ctx, ask("p")); err == nil || err.Error() != "the run ended before the provider answered" {
		t.Fatalf("%v", err)
	}
	cfg := Config{Kind: OpenAI, URL: "http://127.0.0.1:1/v1", Model: "m", Timeout: 30 * time.Second, MaxTokens: 10}
	cl, _ := New(&cfg, "", nil)
	defer cl.Close()
	_, err = cl.Run(context.Background(), ask("p"))
	if err == nil || !strings.HasPrefix(err.Error(), "the provider cannot be reached: ") || strings.Contains(err.Error(), "/v1") {
		t.Fatalf("%v", err)
	}
}

// A 429 waits its Retry-After; 5xx back off; both give up after
// maxRetries, and a Retry-After past the longest wait fails at once.
func TestRetries(t *testing.T) {
	busy := step{status: 429, body: `{"error": {"message": "slow down"}}`, header: map[string]string{"Retry-After": "3"}}
	f := newFake(t, Anthropic, busy, step{text: "after the wait"})
	c, waits := f.client(Config{MaxRetries: 2}, "")
	if got, err := c.Run(context.Background(), ask("p")); err != nil || got != "after the wait" || !reflect.DeepEqual(*waits, []time.Duration{3 * time.Second}) {
		t.Fatalf("%q %v, waits %v", got, err, *waits)
	}

	f = newFake(t, OpenAI, step{status: 503}, step{status: 502}, step{text: "third time"})
	c, waits = f.client(Config{MaxRetries: 2}, "")
	if got, err := c.Run(context.Background(), ask("p")); err != nil || got != "third time" || len(*waits) != 2 {
		t.Fatalf("%q %v, waits %v", got, err, *waits)
	}
	for i, w := range *waits { // between half and all of the doubling backoff
		if full := firstBackoff << i; w < full/2 || w > full {
			t.Errorf("wait %d is %s", i, w)
		}
	}

	f = newFake(t, OpenAI, step{status: 500, body: `{"error": {"message": "boom"}}`})
	c, _ = f.client(Config{MaxRetries: 1}, "")
	if _, err := c.Run(context.Background(), ask("p")); err == nil || err.Error() != "the provider answered 500 Internal Server Error: boom, after 2 attempts" || len(f.requests()) != 2 {
		t.Fatalf("%v after %d", err, len(f.requests()))
	}

	busy.header = map[string]string{"Retry-After": "120"}
	f = newFake(t, OpenAI, busy)
	c, waits = f.client(Config{MaxRetries: 5}, "")
	if _, err := c.Run(context.Background(), ask("p")); err == nil || !strings.Contains(err.Error(), "asks to retry after 2m0s, longer than the 30s a child waits") || len(f.requests()) != 1 || len(*waits) != 0 {
		t.Fatalf("%v after %d", err, len(f.requests()))
	}

	// No retries configured: the first 429 is the answer.
	f = newFake(t, OpenAI, busy)
	c, _ = f.client(Config{MaxRetries: 0}, "")
	if _, err := c.Run(context.Background(), ask("p")); err == nil || !strings.HasSuffix(err.Error(), "after 1 attempts") {
		t.Fatalf("%v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	for v, want := range map[string]time.Duration{"": -1, "x": -1, "-3": -1, "0": 0, "7": 7 * time.Second,
		time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat): 0} {
		if got := parseRetryAfter(v); got != want {
			t.Errorf("%q: %s", v, got)
		}
	}
	if got := parseRetryAfter(time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)); got < 59*time.Minute {
		t.Errorf("an hour ahead: %s", got)
	}
}

// An answer past maxBodyBytes is refused, read no further.
func TestOversizedAnswer(t *testing.T) {
	f := newFake(t, OpenAI, step{text: strings.Repeat("x", maxBodyBytes)})
	c, _ := f.client(Config{}, "")
	if _, err := c.Run(context.Background(), ask("p")); err == nil || err.Error() != "the provider's answer is larger than 1048576 bytes" {
		t.Fatalf("%v", err)
	}
}

// A provider that redirects does not get the key sent elsewhere.
func TestRedirectKeepsTheKey(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("x-api-key")+r.Header.Get("Authorization"))
		mu.Unlock()
	}))
	defer elsewhere.Close()
	for _, kind := range []string{OpenAI, Anthropic} {
		f := newFake(t, kind, step{status: 307, header: map[string]string{"Location": elsewhere.URL + "/v1/messages"}})
		c, _ := f.client(Config{}, testKey)
		if _, err := c.Run(context.Background(), ask("p")); err == nil || !strings.Contains(err.Error(), "307") {
			t.Fatalf("%v", err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Fatalf("the other server got %q", leaked)
	}
}
