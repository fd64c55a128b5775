// Package mcpserve serves a Code Mode runtime as an MCP server: any MCP client
// sees exactly exec, wait and the run's direct-only tools, with the full exec
// description (quick index, API and MCP guidance, namespace prompts).
//
// Each MCP session is its own run scope, so a wait from another session fails
// with "code mode run belongs to a different session.". While a cell runs, the
// server sends progress notifications to a client that asked for them (one per
// finished nested call, and a heartbeat each second); a client cancellation
// aborts the cell. Results are MCP tool results: the CodeModeResult as
// structuredContent, a text rendering in content, isError on failed results;
// a result that cannot travel as a JSON-RPC response (it nests too deep)
// becomes a failed one instead of no response.
//
// Over HTTP, [Options.Token] requires a bearer token on every request (and
// must be set for an address that is not loopback), and a session idle for
// [Options.SessionIdle] is closed, releasing its parked runs.
package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/host"
	"github.com/seed11a79d2d/codemode/ops"
	"github.com/seed11a79d2d/codemode/redact"
)

// Options configure [Serve]. A nil *Options means stdio on this process's
// standard input and output.
type Options struct {
	// HTTPAddr, when set, serves streamable HTTP at http://HTTPAddr/mcp
	// instead of stdio. A missing host ("":8080) means 127.0.0.1; a port of 0
	// picks a free one (the URL is logged). DNS-rebinding protection is on:
	// requests to a loopback listener must name a loopback Host, and
	// cross-origin browser requests are refused. An address that is not
	// loopback needs a Token: Serve refuses it otherwise ([ErrTokenRequired]).
	HTTPAddr string
	// Token, when set, is the bearer token every HTTP request must carry as
	// "Authorization: Bearer <Token>"; any other request gets 401. It must be
	// at least [MinTokenBytes] of visible ASCII (no spaces). Unused on stdio.
	Token string
	// SessionIdle is how long an HTTP session may go without a request
	// before it is closed, and its parked runs with it. Zero means
	// [DefaultSessionIdle]; a negative value means never.
	SessionIdle time.Duration
	// In and Out carry stdio's newline-delimited JSON-RPC; nil means
	// os.Stdin and os.Stdout.
	In  io.Reader
	Out io.Writer
	// Logger receives session and HTTP events; nil discards them.
	Logger *slog.Logger
	// Relay, when set, is bound to this server: downstream servers' requests
	// of their client reach the connected client of the session whose cell
	// made the call.
	Relay *Relay
	// Stateless serves HTTP without MCP sessions (the SDK's stateless
	// mode): any replica behind a load balancer can answer any request. A
	// run's scope is then the bearer token's principal, so it needs a
	// Token; with a [store.Runs] a wait may land on any replica. There
	// is no server-to-client request (elicitation, sampling) in this mode.
	Stateless bool
	// Metrics, when set, counts cells, nested calls and sessions; with
	// MetricsAddr they are served at http://MetricsAddr/metrics, under the
	// same rules as HTTPAddr (a Token for an address that is not loopback,
	// and then on every request).
	Metrics     *ops.Metrics
	MetricsAddr string
	// Audit, when set, receives one record per cell leg and nested call.
	Audit *ops.Audit
	// Observer, whose Hooks the runtime was built with, tells logs,
	// metrics and the audit trail how each nested call was decided.
	Observer *Observer
	// Ready, when set, is asked by GET /readyz (HTTP): nil means ready.
	// /readyz needs no token, so its error, which the caller sees, must
	// name no secret and no more than an operator would put on a status
	// page.
	Ready func(context.Context) error
	// Redact, when set, replaces credentials in what reaches the model: a
	// cell's output, value and error, and direct tools' results.
	Redact *redact.Redactor
	// Drain is how long Serve, when ctx ends, lets the exec and wait legs
	// in flight over HTTP finish (a cell parks at its deadline) while
	// /readyz fails and new legs are refused as busy; legs still running
	// then fail with a message that says so. Zero means one second.
	Drain time.Duration
}

// ErrStatelessToken is returned for Stateless without a Token: every caller
// would share one scope, and wait could not refuse another caller.
var ErrStatelessToken = errors.New("stateless HTTP needs a bearer token: a run's scope is the token's principal")

// DefaultSessionIdle is the idle time after which an HTTP session ends when
// Options.SessionIdle is zero. It is longer than the default snapshot TTL
// (15 minutes), so with default settings expiry never ends a run that could
// still be resumed; it frees the sessions of clients that went away, and
// bounds how long their parked runs (a slot of the process's 64 each) are
// held when the TTL is set longer (up to 24 hours).
const DefaultSessionIdle = 30 * time.Minute

// MinTokenBytes is the shortest bearer token accepted: 16 bytes is 128 bits
// when random, and rules out a word or a PIN.
const MinTokenBytes = 16

// ErrTokenRequired is returned by [Options.Validate] and [Serve] for an
// HTTPAddr that is not loopback when no Token is set: anyone who can reach
// such an address could run cells, and so call the operator's tools with the
// operator's credentials.
var ErrTokenRequired = errors.New("a bearer token is required on an address that is not loopback")

// Validate reports what [Serve] would refuse in o before it serves: a Token
// that is too short or not visible ASCII, and a non-loopback HTTPAddr without
// a Token. A nil *Options is valid.
func (o *Options) Validate() error {
	if o == nil {
		return nil
	}
	if o.Token != "" {
		if err := checkToken(o.Token); err != nil {
			return err
		}
	}
	if o.MetricsAddr != "" {
		if o.Metrics == nil {
			return errors.New("serve metrics: MetricsAddr needs Metrics")
		}
		if err := o.checkAddr("serve metrics", o.MetricsAddr); err != nil {
			return err
		}
	}
	if o.HTTPAddr == "" {
		if o.Stateless {
			return errors.New("stateless serving applies only to HTTP")
		}
		return nil
	}
	if o.Stateless && o.Token == "" {
		return ErrStatelessToken
	}
	return o.checkAddr("serve MCP over HTTP", o.HTTPAddr)
}

// checkAddr applies the token rule to a listen address.
func (o *Options) checkAddr(what, addr string) error {
	h, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%s: address %q: %w", what, addr, err)
	}
	if o.Token == "" && !loopbackHost(h) {
		return fmt.Errorf("%s on %s: %w", what, addr, ErrTokenRequired)
	}
	return nil
}

// loopbackHost reports whether a listen host stays on this machine: the
// default (empty), "localhost" or a loopback IP. Any other name might
// resolve elsewhere, so it counts as not loopback.
func loopbackHost(h string) bool {
	if h == "" || strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Serve serves rt until ctx is cancelled or, on stdio, until the client
// closes its end. It returns nil on a clean end of input or cancellation,
// and the error of [Options.Validate] before serving anything.
func Serve(ctx context.Context, rt *host.Runtime, opts *Options) error {
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := o.Validate(); err != nil {
		return err
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s, err := newService(rt, &o)
	if err != nil {
		return err
	}
	// Servers that connect later, or change their tools, reach clients as a
	// new exec description and a tools/list_changed.
	watch, stop := context.WithCancel(ctx)
	defer stop()
	go rt.Watch(watch, func() {
		if _, err := s.sync(); err != nil {
			s.logger.Warn("code mode surface not refreshed", "error", err)
		}
	})
	if o.MetricsAddr != "" {
		ln, err := s.listen("serve metrics", o.MetricsAddr)
		if err != nil {
			return err
		}
		stop := s.serveMetrics(ln)
		defer stop()
	}
	if o.HTTPAddr == "" {
		return s.serveStdio(ctx)
	}
	ln, err := s.listen("serve MCP over HTTP", o.HTTPAddr)
	if err != nil {
		return err
	}
	return s.serveHTTP(ctx, ln)
}

// listen listens on addr under the token rule: "localhost" was taken at
// its word by Validate; what it resolved to decides.
func (s *service) listen(what, addr string) (net.Listener, error) {
	ln, err := listen(what, addr)
	if err != nil {
		return nil, err
	}
	if ip := ln.Addr().(*net.TCPAddr).IP; s.opts.Token == "" && !ip.IsLoopback() {
		ln.Close()
		return nil, fmt.Errorf("%s on %s (%s): %w", what, addr, ip, ErrTokenRequired)
	}
	return ln, nil
}

// serveMetrics serves /metrics on ln, behind the bearer token when there is
// one, until the returned function is called.
func (s *service) serveMetrics(ln net.Listener) (stop func()) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.opts.Metrics.Handler())
	var h http.Handler = mux
	if s.opts.Token != "" {
		h = newBearer(s.opts.Token, s.logger).handler(mux)
	}
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	s.logger.Info("serving metrics", "url", "http://"+ln.Addr().String()+"/metrics")
	go hs.Serve(ln)
	return func() { hs.Close() }
}

func listen(what, addr string) (net.Listener, error) {
	h, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%s: address %q: %w", what, addr, err)
	}
	if h == "" {
		h = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(h, port))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return ln, nil
}

func (s *service) serveStdio(ctx context.Context) error {
	in, out := s.opts.In, s.opts.Out
	if in == nil {
		in = os.Stdin
	}
	if out == nil {
		out = os.Stdout
	}
	err := s.server.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
	// The client going away, whichever end it closed first, is a clean end.
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed) ||
		errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) {
		return nil
	}
	return fmt.Errorf("serve MCP over stdio: %w", err)
}

// serveHTTP serves streamable HTTP on ln until ctx is cancelled.
func (s *service) serveHTTP(ctx context.Context, ln net.Listener) error {
	url := "http://" + ln.Addr().String() + "/mcp"
	authn := "bearer token"
	if s.opts.Token == "" {
		authn = "none"
		s.logger.Warn("serving MCP over HTTP without a bearer token: any local process can run cells with this server's tools")
	}
	idle := "never"
	if d := s.opts.sessionIdle(); d > 0 {
		idle = d.String()
	}
	s.logger.Info("serving MCP over streamable HTTP", "url", url, "auth", authn, "session_idle", idle)
	hs := &http.Server{Handler: s.httpHandler(), ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serve MCP over HTTP: %w", err)
	case <-ctx.Done():
	}
	// Drain (drain.go), then close: event streams never finish on their
	// own, so Shutdown alone would wait for them.
	drain := s.opts.Drain
	if drain <= 0 {
		drain = time.Second
	}
	s.drain(drain)
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	hs.Close()
	return nil
}

func (s *service) httpHandler() http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.server },
		&sdk.StreamableHTTPOptions{Logger: sessionIDLogger(s.logger), SessionTimeout: s.opts.sessionIdle(), Stateless: s.opts.Stateless})
	mux := http.NewServeMux()
	mux.Handle("/mcp", http.NewCrossOriginProtection().Handler(h))
	var authed http.Handler = mux
	if s.opts.Token != "" {
		// Around everything but the probes, so that every other path and
		// method is refused alike.
		authed = newBearer(s.opts.Token, s.logger).handler(mux)
	}
	outer := http.NewServeMux()
	outer.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { probe(w, nil) })
	outer.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		var err error
		if s.draining.Load() {
			err = errors.New("draining: this replica is shutting down")
		} else if s.opts.Ready != nil {
			ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
			defer cancel()
			err = s.opts.Ready(ctx)
		}
		probe(w, err)
	})
	outer.Handle("/", authed)
	return outer
}

// readyTimeout bounds a readiness check: a probe that hangs is worse than
// one that fails.
const readyTimeout = 5 * time.Second

// probe answers a health probe: 200 "ok", or 503 with why not.
func probe(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err != nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "not ready: %v\n", err)
		return
	}
	fmt.Fprintln(w, "ok")
}

// sessionIdle is SessionIdle with the default applied; 0 means never, as for
// the SDK's SessionTimeout.
func (o *Options) sessionIdle() time.Duration {
	switch {
	case o.SessionIdle == 0:
		return DefaultSessionIdle
	case o.SessionIdle < 0:
		return 0
	}
	return o.SessionIdle
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
