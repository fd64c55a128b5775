package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBadArguments(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"-bin", "x", "-mode", "all"}, 2, "usage"},
		{[]string{"-bin", "x", "-cell", "../etc/passwd"}, 2, "no cell"},
		{[]string{"-bin", "/nonexistent/codemode"}, 1, "servemem:"},
	} {
		var stderr bytes.Buffer
		if code := run(tc.args, &bytes.Buffer{}, &stderr); code != tc.code || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: code %d: %s", tc.args, code, stderr.String())
		}
	}
}
