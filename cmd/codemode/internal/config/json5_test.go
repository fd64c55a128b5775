package config

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseJSON5(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"json", `{"a": [1, 2.5, -3e2, true, false, null, "x"]}`, `{"a":[1,2.5,-3e2,true,false,null,"x"]}`},
		{"comments", "// head\n{ /* inline */ a: 1, // tail\n}", `{"a":1}`},
		{"unquoted keys", `{ $a: 1, _b: 2, cé: 3, \u0061x: 4 }`, `{"$a":1,"_b":2,"cé":3,"ax":4}`},
		{"single quotes", `{'k': 'it\'s "x"'}`, `{"k":"it's \"x\""}`},
		{"trailing commas", `{a: [1, 2,], b: {c: 3,},}`, `{"a":[1,2],"b":{"c":3}}`},
		{"hex", `[0x1F, -0xff, +0X10]`, `[31,-255,16]`},
		{"dots", `[.5, 5., -.25e1, +1]`, `[0.5,5,-0.25e1,1]`},
		{"escapes", `"\x41\u00e9\v\0\/\a"`, `"Aé\u000b\u0000/a"`},
		{"surrogates", `"\ud83d\ude00"`, `"😀"`},
		{"line continuation", "'one \\\ntwo'", `"one two"`},
		{"crlf continuation", "'one \\\r\ntwo'", `"one two"`},
		{"separators in strings", "'a\u2028b'", "\"a\u2028b\""},
		{"space", "\ufeff\u00a0 \t{a:1}\u2003", `{"a":1}`},
		{"empty", `{ }`, `{}`},
		{"scalar", `  'top'  `, `"top"`},
		{"reserved word keys", `{null: 1, true: 2}`, `{"null":1,"true":2}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := ParseJSON5([]byte(c.in))
			if err != nil {
				t.Fatalf("ParseJSON5(%q): %v", c.in, err)
			}
			if got := string(n.JSON()); got != c.want && !sameJSON(got, c.want) {
				t.Errorf("ParseJSON5(%q) = %s, want %s", c.in, got, c.want)
			}
		})
	}
}

func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

func TestParseJSON5Errors(t *testing.T) {
	cases := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"empty", ``, 1, 1, "unexpected end of input"},
		{"unterminated object", "{\n  a: 1", 2, 7, "want ',' or '}'"},
		{"missing colon", "{\n  a 1}", 2, 5, "want ':'"},
		{"bare word", "{a: yes}", 1, 5, `unexpected word "yes"`},
		{"infinity", "{a: -Infinity}", 1, 5, "Infinity has no JSON equivalent"},
		{"nan", "[1,\n NaN]", 2, 2, "NaN has no JSON equivalent"},
		{"duplicate", "{a: 1,\n 'a': 2}", 2, 2, `duplicate key "a"`},
		{"leading zero", "[01]", 1, 2, "leading zeros"},
		{"glued number", "[12px]", 1, 2, "invalid number"},
		{"octal escape", `"\01"`, 1, 2, "octal"},
		{"digit escape", `"\1"`, 1, 2, `invalid escape \1`},
		{"raw newline", "'a\nb'", 1, 3, "line break in a string"},
		{"unterminated string", "{a: 'x", 1, 5, "unterminated string"},
		{"unterminated comment", "{} /* x", 1, 4, "unterminated /* comment"},
		{"trailing garbage", "{} }", 1, 4, "after the value"},
		{"double comma", "[1,,2]", 1, 4, "want a value"},
		{"bad hex", "0x", 1, 1, "invalid hexadecimal"},
		{"bad exponent", "1e", 1, 1, "exponent"},
		{"bad key escape", `{\x41: 1}`, 1, 2, `only \uXXXX`},
		{"invalid utf8", "{a:\n 'x\xff'}", 2, 4, "invalid UTF-8"},
		{"columns are characters", "{é: 'ü', x}", 1, 11, "want ':'"},
		{"deep", strings.Repeat("[", maxDepth+2), 1, maxDepth + 2, "nesting deeper"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseJSON5([]byte(c.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseJSON5(%q) error = %v, want a *SyntaxError", c.in, err)
			}
			if se.Line != c.line || se.Col != c.col || !strings.Contains(se.Msg, c.msg) {
				t.Errorf("ParseJSON5(%q) = %d:%d: %s, want %d:%d: ...%s...", c.in, se.Line, se.Col, se.Msg, c.line, c.col, c.msg)
			}
		})
	}
}

// FuzzParseJSON5 checks that the parser never panics, that what it accepts
// renders as valid JSON, and that it reads any plain JSON text exactly as
// encoding/json does (except for duplicate keys and extreme nesting, which it
// refuses on purpose, and invalid UTF-8, which encoding/json replaces).
func FuzzParseJSON5(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, 2.5e3, true, null, "x\u00e9"]}`, "// c\n{a: 'b', c: [.5, +1, 0x1f,],}",
		`'\x41\ud83d\ude00'`, "{a: /* x */ 1}", `[-0, 1E+2, "\/"]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ParseJSON5(data)
		if err == nil {
			out := n.JSON()
			if !json.Valid(out) {
				t.Fatalf("ParseJSON5(%q) rendered invalid JSON %s", data, out)
			}
		}
		if !json.Valid(data) || !utf8.Valid(data) { // encoding/json replaces invalid UTF-8; we refuse it
			return
		}
		if err != nil {
			if strings.Contains(err.Error(), "duplicate key") || strings.Contains(err.Error(), "nesting deeper") {
				return
			}
			t.Fatalf("ParseJSON5 refused valid JSON %q: %v", data, err)
		}
		var want, got any
		json.Unmarshal(data, &want)
		json.Unmarshal(n.JSON(), &got)
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("ParseJSON5(%q) = %s, encoding/json reads %v", data, n.JSON(), want)
		}
	})
}
