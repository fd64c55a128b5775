package ops

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Genesis is the prev of a trail's first record.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// Record is one line of the audit trail. Kind is "exec", "wait" or
// "tool_search_code" for a cell leg, "call" for a nested call. Code and
// arguments are kept only as their SHA-256 and size, so a record is small
// whatever a cell sends, and the trail holds no secret a cell passed.
type Record struct {
	Seq       int64     `json:"seq"`
	Time      time.Time `json:"time"`
	Kind      string    `json:"kind"`
	Principal string    `json:"principal,omitempty"`
	Session   string    `json:"session"`
	Run       string    `json:"run,omitempty"`  // the runId, once the run parked
	Call      string    `json:"call,omitempty"` // the exec's tool-call id; a nested call's own id
	Parent    string    `json:"parent,omitempty"`

	// Of a leg.
	CodeSHA256  string  `json:"codeSha256,omitempty"`
	CodeBytes   int     `json:"codeBytes,omitempty"`
	Status      string  `json:"status,omitempty"`
	ErrorCode   string  `json:"code,omitempty"`
	ResultBytes int     `json:"resultBytes,omitempty"`
	DurationMs  float64 `json:"durationMs"`

	// Of a nested call.
	Tool       string `json:"tool,omitempty"` // the catalog id the cell asked for
	Server     string `json:"server,omitempty"`
	ArgsSHA256 string `json:"argsSha256,omitempty"`
	ArgsBytes  int    `json:"argsBytes,omitempty"`
	Decision   string `json:"decision,omitempty"`
	Outcome    string `json:"outcome,omitempty"`

	// Prev is the SHA-256 of the previous line's bytes (without its
	// newline), or Genesis.
	Prev string `json:"prev"`
}

// Digest is the hex SHA-256 of b, as records carry it.
func Digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Audit appends records to one file. Each record is one write(2) on a file
// opened O_APPEND; the file is fsync'd after every leg record (which follows
// the nested-call records of its leg), so a crash loses at most the calls of
// legs still running. The file is locked (flock) while open: two processes
// appending to one chain would fork it, so each replica needs its own file.
type Audit struct {
	mu   sync.Mutex
	f    *os.File
	prev string
	seq  int64
}

// maxRecordBytes bounds the tail read when a trail is reopened: records are
// small (hashes, ids of at most 1 KiB).
const maxRecordBytes = 64 << 10

// OpenAudit opens (creating it 0600) the trail at path and continues its
// chain. A trail that ends in a partial line, or whose last line is not a
// record, is refused: appending would hide where it broke.
func OpenAudit(path string) (*Audit, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit trail: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit trail %s is open in another process (give each replica its own file): %w", path, err)
	}
	a := &Audit{f: f, prev: Genesis}
	if err := a.resume(path); err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

// resume reads the trail's last record to continue its chain.
func (a *Audit) resume(path string) error {
	r, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open audit trail: %w", err)
	}
	defer r.Close()
	st, err := r.Stat()
	if err != nil || st.Size() == 0 {
		return err
	}
	off := max(0, st.Size()-maxRecordBytes)
	tail := make([]byte, st.Size()-off)
	if _, err := r.ReadAt(tail, off); err != nil {
		return fmt.Errorf("read audit trail: %w", err)
	}
	if tail[len(tail)-1] != '\n' {
		return fmt.Errorf("audit trail %s ends in a partial line: run codemode audit verify on it, and move it aside to start a new trail", path)
	}
	tail = tail[:len(tail)-1]
	last := tail[bytes.LastIndexByte(tail, '\n')+1:]
	var rec Record
	if json.Unmarshal(last, &rec) != nil || len(rec.Prev) != len(Genesis) {
		return fmt.Errorf("audit trail %s: its last line is not an audit record: run codemode audit verify on it", path)
	}
	a.prev, a.seq = Digest(last), rec.Seq
	return nil
}

// Append writes rec as the next record, filling Seq and Prev (and Time when
// zero). A leg record is fsync'd.
func (a *Audit) Append(rec Record) error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return errors.New("audit trail closed")
	}
	if rec.Time.IsZero() {
		rec.Time = time.Now().UTC()
	}
	rec.Seq, rec.Prev = a.seq+1, a.prev
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if _, err := a.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write audit record: %w", err)
	}
	a.seq, a.prev = rec.Seq, Digest(line)
	if rec.Kind != "call" {
		if err := a.f.Sync(); err != nil {
			return fmt.Errorf("sync audit trail: %w", err)
		}
	}
	return nil
}

// Close syncs and closes the trail.
func (a *Audit) Close() error {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return nil
	}
	err := errors.Join(a.f.Sync(), a.f.Close())
	a.f = nil
	return err
}

// ChainError is where a trail stops verifying.
type ChainError struct {
	Line   int // 1-based
	Reason string
}

func (e *ChainError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Reason) }

// VerifyAudit checks a trail's chain from its first line: every line a
// record, its prev the digest of the line before (Genesis for the first),
// its seq one more. It returns the number of records and the digest of the
// last, which an operator can keep elsewhere: a chain alone cannot show
// that lines were cut from its end.
func VerifyAudit(r io.Reader) (records int, head string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	prev, seq := Genesis, int64(0)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if err == io.EOF && len(line) == 0 {
			return n - 1, prev, nil
		}
		if err != nil && err != io.EOF {
			return n - 1, prev, err
		}
		if err == io.EOF {
			return n - 1, prev, &ChainError{n, "partial last line (no newline): the write was cut short, or the line was edited"}
		}
		line = line[:len(line)-1]
		var rec Record
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rec); err != nil {
			return n - 1, prev, &ChainError{n, "not an audit record: " + strings.TrimPrefix(err.Error(), "json: ")}
		}
		switch {
		case rec.Prev != prev && n == 1:
			return 0, prev, &ChainError{n, "the first record does not start a chain: lines before it were deleted"}
		case rec.Seq > seq+1:
			return n - 1, prev, &ChainError{n, fmt.Sprintf("records %d to %d before this line were deleted", seq+1, rec.Seq-1)}
		case rec.Prev != prev && rec.Seq == seq+1:
			// The line before is the one whose bytes changed.
			return n - 2, prev, &ChainError{n - 1, "edited: it is not the line the next record's prev names"}
		case rec.Prev != prev || rec.Seq != seq+1:
			return n - 1, prev, &ChainError{n, fmt.Sprintf("edited: seq %d and prev do not follow record %d", rec.Seq, seq)}
		}
		prev, seq = Digest(line), rec.Seq
	}
}
