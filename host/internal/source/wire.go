package source

import (
	"errors"
	"strings"
)

// wireMap is a Map as the parser process sends it. The host checks it
// against the JavaScript it came with before using it.
type wireMap struct {
	Lines   [][][3]int `json:"lines"` // per JavaScript line: col, srcLine, srcCol
	Code    []string   `json:"code"`
	Ins     [][3]int   `json:"ins"` // line, col, n
	EndLine int        `json:"endLine"`
	EndCol  int        `json:"endCol"`
}

func (m *Map) wire() *wireMap {
	if m == nil {
		return nil
	}
	w := &wireMap{Code: m.code, EndLine: m.endLine, EndCol: m.endCol}
	if m.lines != nil {
		w.Lines = make([][][3]int, len(m.lines))
		for i, segs := range m.lines {
			for _, s := range segs {
				w.Lines[i] = append(w.Lines[i], [3]int{s.col, s.srcLine, s.srcCol})
			}
		}
	}
	for _, in := range m.ins {
		w.Ins = append(w.Ins, [3]int{in.line, in.col, in.n})
	}
	return w
}

// decode rebuilds the Map for js.
func (w *wireMap) decode(js string) (*Map, error) {
	if w == nil {
		return nil, nil
	}
	m := &Map{js: strings.Split(js, "\n"), code: w.Code, endLine: w.EndLine, endCol: w.EndCol}
	if w.Lines != nil {
		if len(w.Lines) != len(m.js) {
			return nil, errors.New("source map lines do not match the JavaScript")
		}
		m.lines = make([][]mapping, len(w.Lines))
		for i, segs := range w.Lines {
			for _, s := range segs {
				if s[0] < 0 || s[1] < 0 || s[2] < 0 {
					return nil, errors.New("source map segment out of range")
				}
				m.lines[i] = append(m.lines[i], mapping{col: s[0], srcLine: s[1], srcCol: s[2]})
			}
		}
	}
	for _, in := range w.Ins {
		if in[0] < 0 || in[1] < 0 || in[2] < 0 {
			return nil, errors.New("source map insertion out of range")
		}
		m.ins = append(m.ins, insertion{line: in[0], col: in[1], n: in[2]})
	}
	return m, nil
}
