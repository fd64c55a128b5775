package catalog

import (
	"slices"
	"strings"
)

// APIFile is one virtual API file. Its JSON form, {path, bytes}, is an entry
// of API.list; Bytes is the UTF-8 length of Content.
type APIFile struct {
	Path    string `json:"path"`
	Bytes   int    `json:"bytes"`
	Content string `json:"-"`
}

// APIFiles is the read-only table of virtual API files behind API.list and
// API.read: mcp/index.d.ts and one mcp/<server>.d.ts per MCP server. It is
// empty when the catalog has no MCP entries. It is safe for concurrent use.
type APIFiles struct {
	files []APIFile // in listing order: mcp/index.d.ts, then the rest by path
}

// APIFiles returns the catalog's API file table, rendered once.
func (c *Catalog) APIFiles() *APIFiles {
	c.filesOnce.Do(func() {
		if c.shared != nil {
			c.files = c.shared.APIFiles()
			return
		}
		f := &APIFiles{}
		if len(c.mcp()) > 0 {
			// The root declaration leads: it names every server file.
			f.add(mcpIndexPath, c.renderIndex())
			for k := range c.servers {
				s := &c.servers[k]
				tools := make([]*MCPTool, len(s.Tools))
				for i := range s.Tools {
					tools[i] = &s.Tools[i]
				}
				f.add(s.Path, renderServer(s, tools, true))
			}
			slices.SortFunc(f.files[1:], func(a, b APIFile) int { return strings.Compare(a.Path, b.Path) })
		}
		c.files = f
	})
	return c.files
}

// mcpIndexPath is the root MCP declaration, the first file listed.
const mcpIndexPath = "mcp/index.d.ts"

func (f *APIFiles) add(path, content string) {
	f.files = append(f.files, APIFile{Path: path, Bytes: len(content), Content: content})
}

// Files returns every file, contents included, in listing order
// (mcp/index.d.ts first, then by path): the table the host injects into the
// guest.
func (f *APIFiles) Files() []APIFile { return slices.Clone(f.files) }

// normalizeAPIPath trims p, removes leading slashes and, when trailingSlash
// is set, one trailing slash; then it checks every segment.
func normalizeAPIPath(p string, trailingSlash bool) (string, error) {
	p = strings.TrimLeft(strings.TrimSpace(p), "/")
	if trailingSlash {
		p = strings.TrimSuffix(p, "/")
	}
	if p == "" {
		return "", &guestError{ErrInvalidAPIPath, "invalid API file path"}
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", &guestError{ErrInvalidAPIPath, "invalid API file path"}
		}
	}
	return p, nil
}

// List returns the files at or under prefix ({path, bytes} in JSON),
// mcp/index.d.ts first and the rest sorted by path. The prefix is normalised like a path (a trailing "/" is allowed);
// an empty or blank prefix lists every file. A malformed prefix is an error
// matching [ErrInvalidAPIPath].
func (f *APIFiles) List(prefix string) ([]APIFile, error) {
	out := []APIFile{}
	if strings.TrimSpace(prefix) == "" {
		return append(out, f.files...), nil
	}
	p, err := normalizeAPIPath(prefix, true)
	if err != nil {
		return nil, err
	}
	for _, file := range f.files {
		if file.Path == p || strings.HasPrefix(file.Path, p+"/") {
			out = append(out, file)
		}
	}
	return out, nil
}

// Read returns the content of the file at path. The path is trimmed and
// leading slashes are removed; an empty path or one with an empty, "." or
// ".." segment is an error matching [ErrInvalidAPIPath] ("invalid API file
// path"), and a path naming no file one matching [ErrUnknownAPIFile]
// ("Unknown API file: <path>").
func (f *APIFiles) Read(path string) (string, error) {
	p, err := normalizeAPIPath(path, false)
	if err != nil {
		return "", err
	}
	k := slices.IndexFunc(f.files, func(a APIFile) bool { return a.Path == p })
	if k < 0 {
		return "", &guestError{ErrUnknownAPIFile, "Unknown API file: " + echo(p)}
	}
	return f.files[k].Content, nil
}
