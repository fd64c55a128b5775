package catalog

import (
	"errors"

	"github.com/seed11a79d2d/codemode/tool"
)

// Sentinel errors. Errors returned by [Catalog] methods match one of these
// with [errors.Is]; their Error text is the exact message shown to guest code.
var (
	// ErrInvalidLimit: a search limit that is not a positive integer.
	ErrInvalidLimit = tool.Message("limit must be a positive integer.")
	// ErrUnknownTool: no guest-visible entry has the given id or name.
	ErrUnknownTool = errors.New("unknown tool")
	// ErrAmbiguousTool: a name shared by several guest-visible entries.
	ErrAmbiguousTool = errors.New("ambiguous tool name")
	// ErrInvalidAPIPath: an API file path that is empty or has an empty, "." or ".." segment.
	ErrInvalidAPIPath = errors.New("invalid API file path")
	// ErrUnknownAPIFile: a well-formed API file path that names no file.
	ErrUnknownAPIFile = errors.New("unknown API file")
	// ErrUnknownMCPTool: an MCP $api selector that matches no tool of the server.
	ErrUnknownMCPTool = errors.New("unknown MCP tool")
	// ErrInvalidTool: a [Tool] that Build cannot catalogue (no name, bad owner, bad schema).
	ErrInvalidTool = errors.New("invalid tool")
	// ErrDuplicateID: two tools that would get the same catalog id.
	ErrDuplicateID = errors.New("duplicate tool id")
)

// guestError carries a guest-facing message and the sentinel it matches.
type guestError struct {
	kind error
	msg  string
}

func (e *guestError) Error() string { return e.msg }

func (e *guestError) Is(target error) bool { return target == e.kind }

// maxEcho bounds how much of a caller-supplied string an error message repeats.
const maxEcho = 200

func echo(s string) string { return truncate16(s, maxEcho, "…") }
