package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of what the client reads and waits for.
const (
	// maxBodyBytes bounds an answer's body: the host takes at most 256 KiB
	// of a child's text, and the JSON around it is small.
	maxBodyBytes = 1 << 20
	// maxProblemBytes bounds the provider's own words in an error.
	maxProblemBytes = 300
	// maxRetryWait is the longest wait between attempts. A Retry-After
	// longer than it fails the child at once: retrying sooner would be
	// refused again, and a cell should not sit idle for minutes.
	maxRetryWait = 30 * time.Second
	firstBackoff = 500 * time.Millisecond
	maxBackoff   = 8 * time.Second
)

// Message is one turn of a child's conversation: role "user" or
// "assistant".
type Message struct {
	Role, Text string
}

// Request is one child.
type Request struct {
	System   string
	Messages []Message
	// Label picks the model from Config.Models; Model is the cell's hint,
	// used only when it names a model the config lists (a cell does not
	// choose what the operator pays for).
	Label, Model string
	// Cell and Session key the budgets: a cell's children share the cell's,
	// a session's cells the session's ("" is a key like any other).
	Cell, Session string
}

// Client runs children against one provider. It is safe for concurrent use.
type Client struct {
	cfg      Config
	key      string
	wire     wire
	endpoint string
	http     *http.Client
	logger   *slog.Logger
	ledger   ledger
	// sleep waits between attempts; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New returns a client for cfg (from [Parse]) that sends key (from
// [Config.ReadKey], or ""). logger, when not nil, gets a record per child
// and per retry: never the key, a prompt or an answer. Close it.
func New(cfg *Config, key string, logger *slog.Logger) (*Client, error) {
	w, ok := wires[cfg.Kind]
	if !ok {
		return nil, fmt.Errorf("provider kind %q is not %q or %q", cfg.Kind, OpenAI, Anthropic)
	}
	if problem := checkURL(cfg.URL, key != ""); problem != "" {
		return nil, fmt.Errorf("provider url %s", problem)
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	endpoint := strings.TrimRight(cfg.URL, "/")
	if !strings.HasSuffix(endpoint, w.path) {
		endpoint += w.path
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	return &Client{cfg: *cfg, key: key, wire: w, endpoint: endpoint, logger: logger, ledger: ledger{budget: cfg.Budget}, sleep: sleep,
		http: &http.Client{Transport: t,
			// A redirect would carry the key's header to wherever the
			// provider points: the answer is refused instead.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}, nil
}

// Close drops the client's idle connections.
func (c *Client) Close() { c.http.CloseIdleConnections() }

// Run asks the provider for a child's answer: its text. The child first
// holds its most against the budgets (its estimated input and MaxTokens of
// output) and is refused when that passes one; then it is charged what the
// provider reports, or the estimate of its input and answer when the
// provider reports nothing. A 429 or 5xx is retried at most MaxRetries
// times, after Retry-After when the provider says (at most 30 s) or a
// growing backoff. Errors are for the cell: they never hold the key.
func (c *Client) Run(ctx context.Context, req Request) (string, error) {
	model := c.model(req)
	in := int64(len(req.System)+3) / 4
	for _, m := range req.Messages {
		in += int64(len(m.Text)+3) / 4
	}
	release, err := c.ledger.hold(req.Cell, req.Session, c.usage(count{in, int64(c.cfg.MaxTokens)}))
	if err != nil {
		c.logger.Warn("sub-agent refused by its budget", "label", req.Label, "problem", err.Error())
		return "", err
	}
	text, spent, attempts, err := c.attempts(ctx, model, req)
	if err == nil && spent == (count{}) {
		spent = count{in, int64(len(text)+3) / 4}
	}
	release(c.usage(spent))
	if err != nil {
		c.logger.Warn("sub-agent failed", "label", req.Label, "model", model, "attempts", attempts, "problem", c.redact(err.Error()))
		return "", errors.New(c.redact(err.Error()))
	}
	c.logger.Info("sub-agent answered", "label", req.Label, "model", model, "attempts", attempts, "inputTokens", spent.in, "outputTokens", spent.out)
	return text, nil
}

// model is the child's: the cell's hint when the config lists it, else the
// label's, else the default.
func (c *Client) model(req Request) string {
	if req.Model != "" && (req.Model == c.cfg.Model || slices.Contains(slices.Collect(maps.Values(c.cfg.Models)), req.Model)) {
		return req.Model
	}
	if m, ok := c.cfg.Models[req.Label]; ok {
		return m
	}
	return c.cfg.Model
}

// count is tokens in and out.
type count struct{ in, out int64 }

func (c *Client) usage(n count) usage {
	u := usage{tokens: n.in + n.out}
	if p := c.cfg.Price; p != nil {
		u.cost = (float64(n.in)*p.Input + float64(n.out)*p.Output) / 1e6
	}
	return u
}

// attempts posts the request until it is answered, refused, or out of
// retries; spent adds up what the answers reported.
func (c *Client) attempts(ctx context.Context, model string, req Request) (text string, spent count, n int, err error) {
	body, err := json.Marshal(c.wire.body(model, req.System, req.Messages, c.cfg.MaxTokens))
	if err != nil {
		return "", spent, 0, err
	}
	for n = 1; ; n++ {
		status, answer, retryAfter, err := c.post(ctx, body)
		if err != nil {
			return "", spent, n, err
		}
		if status == http.StatusOK {
			text, used, err := c.wire.answer(answer)
			spent.in, spent.out = spent.in+used.in, spent.out+used.out
			if err != nil {
				return "", spent, n, fmt.Errorf("the provider's answer cannot be used: %w", err)
			}
			return text, spent, n, nil
		}
		problem := fmt.Sprintf("the provider answered %d %s", status, http.StatusText(status))
		if p := c.wire.problem(answer); p != "" {
			problem += ": " + bounded(p)
		}
		if status != http.StatusTooManyRequests && status < 500 {
			return "", spent, n, errors.New(problem)
		}
		if n > c.cfg.MaxRetries {
			return "", spent, n, fmt.Errorf("%s, after %d attempts", problem, n)
		}
		wait := backoff(n)
		if retryAfter >= 0 {
			wait = retryAfter
		}
		if wait > maxRetryWait {
			return "", spent, n, fmt.Errorf("%s, and asks to retry after %s, longer than the %s a child waits", problem, wait.Round(time.Second), maxRetryWait)
		}
		c.logger.Warn("sub-agent provider busy, retrying", "label", req.Label, "status", status, "wait", wait, "attempt", n)
		if err := c.sleep(ctx, wait); err != nil {
			return "", spent, n, errors.New("the run ended while the child waited to retry")
		}
	}
}

// post sends one attempt within Timeout and reads at most maxBodyBytes of
// its answer; retryAfter is the answer's Retry-After, or -1.
func (c *Client) post(ctx context.Context, body []byte) (status int, answer []byte, retryAfter time.Duration, err error) {
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	fail := func(err error) (int, []byte, time.Duration, error) {
		switch {
		case ctx.Err() != nil:
			return 0, nil, 0, errors.New("the run ended before the provider answered")
		case actx.Err() != nil:
			return 0, nil, 0, fmt.Errorf("the provider did not answer within tools.swarm.provider.timeoutMs (%d ms)", c.cfg.Timeout.Milliseconds())
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL
		}
		return 0, nil, 0, fmt.Errorf("the provider cannot be reached: %w", err)
	}
	hr, err := http.NewRequestWithContext(actx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return fail(err)
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set("Accept", "application/json")
	c.wire.header(hr.Header, c.key)
	res, err := c.http.Do(hr)
	if err != nil {
		return fail(err)
	}
	defer res.Body.Close()
	answer, err = io.ReadAll(io.LimitReader(res.Body, maxBodyBytes+1))
	if err != nil {
		return fail(err)
	}
	if len(answer) > maxBodyBytes {
		return 0, nil, 0, fmt.Errorf("the provider's answer is larger than %d bytes", maxBodyBytes)
	}
	return res.StatusCode, answer, parseRetryAfter(res.Header.Get("Retry-After")), nil
}

// parseRetryAfter reads seconds or an HTTP date; -1 when absent or unread.
func parseRetryAfter(v string) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return -1
		}
		return time.Duration(min(s, 1<<20)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t).Round(time.Second))
	}
	return -1
}

// backoff is the wait before attempt n+1: doubling from firstBackoff up to
// maxBackoff, each between half and all of it so that children rate
// limited together do not retry together.
func backoff(n int) time.Duration {
	d := min(firstBackoff<<min(n-1, 10), maxBackoff)
	return d/2 + rand.N(d/2+1)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// redact removes the key from a message: a provider may echo it back.
func (c *Client) redact(s string) string {
	if c.key == "" {
		return s
	}
	return strings.ReplaceAll(s, c.key, "[key]")
}

// bounded is the provider's words cut to maxProblemBytes on a rune
// boundary, on one line.
func bounded(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxProblemBytes {
		return s
	}
	cut := maxProblemBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
