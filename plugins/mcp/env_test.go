package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestServerEnv(t *testing.T) {
	environ := []string{"HOME=/home/u", "PATH=/bin", "USER=u", "TERM=xterm", "AWS_SECRET_ACCESS_KEY=aws",
		"CODEMODE_TOKEN=tok", "CODEMODE_STORE_KEY=key", "codemode_token=lower", "GITHUB_TOKEN=gh", "EMPTY=", "NOEQUALS"}
	for _, tc := range []struct {
		name string
		cfg  ServerConfig
		goos string
		want string
	}{
		{"allowlist", ServerConfig{}, "linux", "[HOME=/home/u PATH=/bin USER=u TERM=xterm]"},
		{"env added, sorted, over the inherited", ServerConfig{Env: map[string]string{"Z": "1", "GITHUB_TOKEN": "given", "PATH": "/opt"}}, "linux",
			"[HOME=/home/u USER=u TERM=xterm GITHUB_TOKEN=given PATH=/opt Z=1]"},
		{"a CODEMODE_ name the operator wrote", ServerConfig{Env: map[string]string{"CODEMODE_X": "1"}}, "linux",
			"[HOME=/home/u PATH=/bin USER=u TERM=xterm CODEMODE_X=1]"},
		{"inheritEnv keeps out CODEMODE_", ServerConfig{InheritEnv: true}, "linux",
			"[HOME=/home/u PATH=/bin USER=u TERM=xterm AWS_SECRET_ACCESS_KEY=aws GITHUB_TOKEN=gh EMPTY= NOEQUALS]"},
		{"windows", ServerConfig{}, "windows", "[PATH=/bin]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fmt.Sprint(serverEnv(tc.cfg, environ, tc.goos)); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
	win := []string{"Path=C:\\Windows", "SystemRoot=C:\\Windows", "UserProfile=C:\\Users\\u", "Codemode_Token=t", "OneDrive=x"}
	if got, want := fmt.Sprint(serverEnv(ServerConfig{}, win, "windows")), `[Path=C:\Windows SystemRoot=C:\Windows UserProfile=C:\Users\u]`; got != want {
		t.Errorf("windows names in any case: got %s, want %s", got, want)
	}
}

// TestStdioServerEnv: a real stdio server reports its environment: the
// allowlist and its config's env, never a CODEMODE_ variable of this
// process, and with InheritEnv everything but those.
func TestStdioServerEnv(t *testing.T) {
	t.Setenv("CODEMODE_TOKEN", "token-the-server-must-not-see")
	t.Setenv("CODEMODE_STORE_KEY", "key-the-server-must-not-see")
	t.Setenv("OPERATOR_SECRET", "outside-the-allowlist")
	t.Setenv("HOME", "/home/test")
	for _, inherit := range []bool{false, true} {
		t.Run(fmt.Sprint("inheritEnv=", inherit), func(t *testing.T) {
			cfg := subprocess(t)
			cfg.Env["GIVEN"] = "by-config"
			cfg.InheritEnv = inherit
			c := start(t, &Options{Servers: map[string]ServerConfig{"test": cfg}})
			var item struct{ Text string }
			var out struct{ Environ []string }
			if err := json.Unmarshal([]byte(callTool(t, c, "environ", `{}`)), &item); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(item.Text), &out); err != nil {
				t.Fatal(err)
			}
			names := map[string]string{}
			for _, kv := range out.Environ {
				k, v, _ := strings.Cut(kv, "=")
				names[k] = v
				if strings.Contains(v, "must-not-see") || strings.HasPrefix(k, "CODEMODE_") && k != testServerEnv {
					t.Errorf("the server sees %s", kv)
				}
				if !inherit && !slices.Contains(inheritedEnv["unix"], k) && k != "GIVEN" && k != testServerEnv {
					t.Errorf("the server sees %s, outside the allowlist and its env", kv)
				}
			}
			if names["GIVEN"] != "by-config" || names["HOME"] != "/home/test" {
				t.Errorf("the server misses its env or HOME: %v", out.Environ)
			}
			if _, seen := names["OPERATOR_SECRET"]; seen != inherit {
				t.Errorf("OPERATOR_SECRET seen %v with inheritEnv %v", seen, inherit)
			}
		})
	}
}
