package mcp

import (
	"slices"
	"strings"
)

// inheritedEnv lists the variables a stdio server gets from this process by
// default: what a program needs to find its executables, its home and its
// user, and nothing that usually holds a secret. Everything else the server
// needs is named in its config's env.
var inheritedEnv = map[string][]string{
	"unix": {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"},
	"windows": {"APPDATA", "COMSPEC", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
		"PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP",
		"USERNAME", "USERPROFILE"},
}

// ownPrefix marks codemode's own variables (its bearer token, its run
// store's key, its inputs): a downstream server never inherits them.
const ownPrefix = "CODEMODE_"

// serverEnv is the environment of a stdio server started by this process,
// whose environment is environ (os.Environ's form), on goos: the default
// allowlist (all of it with cfg.InheritEnv), never a CODEMODE_ variable,
// then cfg.Env, which wins over an inherited variable of the same name (on
// Windows, os/exec keeps the last of two names that differ in case). A
// CODEMODE_ name in cfg.Env is passed: the operator wrote it there.
func serverEnv(cfg ServerConfig, environ []string, goos string) []string {
	allow := inheritedEnv["unix"]
	// Windows names are case-insensitive ("Path"), so they are compared in
	// upper case there.
	fold := func(s string) string { return s }
	if goos == "windows" {
		allow = inheritedEnv["windows"]
		fold = strings.ToUpper
	}
	var env []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(name), ownPrefix) {
			continue
		}
		if _, set := cfg.Env[name]; set {
			continue
		}
		if cfg.InheritEnv || slices.Contains(allow, fold(name)) {
			env = append(env, kv)
		}
	}
	// Sorted, so that a server starts the same way every time.
	names := make([]string, 0, len(cfg.Env))
	for k := range cfg.Env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		env = append(env, k+"="+cfg.Env[k])
	}
	return env
}
