package source

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Untrusted source never reaches esbuild in the host process: esbuild's
// parser and printer have inputs, well under every bound counted here, that
// take gigabytes or minutes (string folding, templates of templates, deep
// arrows), and a Go process cannot take memory back from a goroutine or stop
// one. So a check that needs esbuild runs whole in a parser process: this
// same binary started again with parserEnv set, which init below turns into
// a loop that checks one cell per request. The process has a hard memory
// bound (an rlimit where the system has one, and a watchdog everywhere) and
// is killed at the cell's deadline, so the worst a cell can do is cost its
// own deadline on one parser. RATIONALE.md has the alternatives and numbers.

// parserEnv marks a parser process; its value is the protocol's version, so
// a binary replaced on disk by another version is never spoken to wrongly
// (on Linux the parent re-executes /proc/self/exe, its own image, anyway).
const (
	parserEnv     = "CODEMODE_SOURCE_PARSER"
	parserVersion = "1"
)

// ParserMemoryBytes bounds one parser process: its heap, stacks and
// runtime. A legitimate 256 KiB TypeScript cell needs a few tens of MiB.
const ParserMemoryBytes = 192 << 20

// MaxParsers bounds the parser processes alive at once; a check that finds
// them all busy waits for one within its deadline. Parsing is CPU-bound, so
// more parsers than cores would only slow each other. One owner (the host
// passes the cell's session; "" is none, which counts only against the
// total) holds at most MaxParsers-1 of them, so its slow cells wait for each
// other and always leave a parser to everyone else.
var MaxParsers = max(2, runtime.GOMAXPROCS(0))

// Messages for checks the parser could not finish.
var (
	MsgParserBound = fmt.Sprintf("code mode could not check this cell within the parser's bounds "+
		"(%d MiB of memory): the source is too complex to transform. Simplify or split it: "+
		"long chains of joined strings, templates or enums built from each other, and deep nesting are the usual causes.",
		ParserMemoryBytes>>20)
)

// ErrParserUnavailable wraps a parser process that could not be started.
var ErrParserUnavailable = errors.New("code mode cannot start its source parser process")

func init() {
	if os.Getenv(parserEnv) == parserVersion {
		os.Exit(serveParser(os.Stdin, os.Stdout))
	}
}

// request and response are the parser protocol: one JSON value each way per
// cell, over the process's stdin and stdout.
type request struct {
	Code      string   `json:"code"`
	Language  string   `json:"language"`
	Languages []string `json:"languages"`
}

type response struct {
	JS      string   `json:"js"`
	Map     *wireMap `json:"map,omitempty"`
	Reason  Reason   `json:"reason,omitempty"`
	Message string   `json:"message,omitempty"`
}

// serveParser is a parser process's whole life: bound itself, then answer
// requests until stdin closes or the parent goes away.
func serveParser(in io.Reader, out io.Writer) int {
	boundMemory(ParserMemoryBytes)
	debug.SetMemoryLimit(ParserMemoryBytes / 2) // collect hard long before the bound
	go watch(os.Getppid())
	dec, enc := json.NewDecoder(in), json.NewEncoder(out)
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			return 0 // the parent closed the pipe or is gone
		}
		js, m, err := check(req.Code, req.Language, req.Languages, here)
		resp := response{JS: js, Map: m.wire()}
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				se = &Error{Reason: ReasonTypeScriptTransformFailed, Message: err.Error()}
			}
			resp = response{Reason: se.Reason, Message: se.Message}
		}
		if enc.Encode(resp) != nil {
			return 0
		}
		if heapBytes() > 32<<20 {
			debug.FreeOSMemory() // a big cell's heap does not stay with an idle parser
		}
	}
}

// watch ends the parser when its parent is gone (a parse in progress keeps
// it from reading the closed pipe) or when it passes its memory bound where
// the system enforces none.
func watch(parent int) {
	for range time.Tick(20 * time.Millisecond) {
		if os.Getppid() != parent || heapBytes() > ParserMemoryBytes {
			os.Exit(3)
		}
	}
}

// heapBytes is the memory the Go runtime holds from the system, less what
// it has handed back.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// parser is one parser process, seen from the host.
type parser struct {
	cmd     *exec.Cmd
	enc     *json.Encoder
	dec     *json.Decoder
	in, out *os.File
}

// parsers is the process-wide pool: slots bounds the processes alive,
// shares what each owner holds, idle keeps the ones between cells warm
// (starting one costs milliseconds).
var parsers = struct {
	once   sync.Once
	slots  chan struct{}
	mu     sync.Mutex
	shares map[string]*share
	idle   []*parser
}{shares: map[string]*share{}}

// share is one owner's part of the pool: held bounds its parsers, refs
// counts its checks holding or waiting, so the entry goes with the last.
type share struct {
	held chan struct{}
	refs int
}

// parseOut runs the whole check of one cell of owner in a parser process,
// within ctx. Its errors are *Error (the cell's fault), ctx's error (the
// deadline or the caller), or ErrParserUnavailable.
func parseOut(ctx context.Context, owner string, req request) (string, *Map, error) {
	parsers.once.Do(func() { parsers.slots = make(chan struct{}, MaxParsers) })
	if owner != "" {
		sh := joinShare(owner)
		defer leaveShare(owner, sh)
		select {
		case sh.held <- struct{}{}:
		case <-ctx.Done():
			return "", nil, ctx.Err()
		}
		defer func() { <-sh.held }()
	}
	select {
	case parsers.slots <- struct{}{}:
	case <-ctx.Done():
		return "", nil, ctx.Err()
	}
	defer func() { <-parsers.slots }()
	if err := ctx.Err(); err != nil {
		return "", nil, err // select chose a slot over an ended wait
	}
	for fresh := false; ; fresh = true {
		p, reused, err := takeParser(fresh)
		if err != nil {
			return "", nil, err
		}
		js, m, err := ask(ctx, p, req)
		if errors.Is(err, errParserDied) && reused && ctx.Err() == nil {
			continue // it died idle (killed from outside): once more, on a new one
		}
		if errors.Is(err, errParserDied) {
			return "", nil, reject(ReasonSourceTooComplex, MsgParserBound)
		}
		return js, m, err
	}
}

var errParserDied = errors.New("the parser process died")

func joinShare(owner string) *share {
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	sh := parsers.shares[owner]
	if sh == nil {
		sh = &share{held: make(chan struct{}, max(1, MaxParsers-1))}
		parsers.shares[owner] = sh
	}
	sh.refs++
	return sh
}

func leaveShare(owner string, sh *share) {
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	if sh.refs--; sh.refs == 0 {
		delete(parsers.shares, owner)
	}
}

// ask sends one request to p and waits for its answer within ctx.
func ask(ctx context.Context, p *parser, req request) (string, *Map, error) {
	type answer struct {
		resp response
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		var a answer
		if a.err = p.enc.Encode(req); a.err == nil {
			a.err = p.dec.Decode(&a.resp)
		}
		done <- a
	}()
	select {
	case a := <-done:
		if a.err != nil { // it died: its bound, or something killed it
			p.stop()
			if ctx.Err() != nil {
				return "", nil, ctx.Err()
			}
			return "", nil, errParserDied
		}
		putParser(p)
		if a.resp.Reason != "" {
			return "", nil, reject(a.resp.Reason, a.resp.Message)
		}
		m, err := a.resp.Map.decode(a.resp.JS)
		if err != nil {
			return "", nil, reject(ReasonTypeScriptTransformFailed, "typescript transform failed: unexpected output")
		}
		return a.resp.JS, m, nil
	case <-ctx.Done():
		p.stop() // the goroutine above ends on the closed pipes
		return "", nil, ctx.Err()
	}
}

// takeParser takes an idle parser, unless fresh, or starts one.
func takeParser(fresh bool) (p *parser, reused bool, err error) {
	parsers.mu.Lock()
	if n := len(parsers.idle); n > 0 && !fresh {
		p = parsers.idle[n-1]
		parsers.idle = parsers.idle[:n-1]
		parsers.mu.Unlock()
		return p, true, nil
	}
	parsers.mu.Unlock()
	p, err = startParser()
	return p, false, err
}

func putParser(p *parser) {
	parsers.mu.Lock()
	defer parsers.mu.Unlock()
	parsers.idle = append(parsers.idle, p)
}

func startParser() (*parser, error) {
	exe, err := selfExecutable()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParserUnavailable, err)
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrParserUnavailable, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("%w: %v", ErrParserUnavailable, err)
	}
	cmd := exec.Command(exe)
	// Nothing of the host's environment: the parser needs none of it, and
	// the operator's secrets stay where they are.
	cmd.Env = []string{parserEnv + "=" + parserVersion, "GOMAXPROCS=1", "GOTRACEBACK=none"}
	cmd.Stdin, cmd.Stdout = inR, outW // stderr: the null device
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, fmt.Errorf("%w: %v", ErrParserUnavailable, err)
	}
	return &parser{cmd: cmd, enc: json.NewEncoder(inW), dec: json.NewDecoder(outR), in: inW, out: outR}, nil
}

// stop kills and reaps a parser. Idle parsers need no goroutine: one that
// dies between cells shows as a closed pipe on its next use.
func (p *parser) stop() {
	p.cmd.Process.Kill() //nolint:errcheck // it may be gone already
	p.in.Close()
	p.out.Close()
	p.cmd.Wait() //nolint:errcheck // killed: its status says nothing new
}

// selfExecutable is this program's image: /proc/self/exe on Linux, which
// stays this binary even if the file on disk is replaced.
func selfExecutable() (string, error) {
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			return "/proc/self/exe", nil
		}
	}
	return os.Executable()
}
