package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/seed11a79d2d/codemode/cmd/codemode/internal/config"
	"github.com/seed11a79d2d/codemode/plugins/mcp"
)

// oauthAuthorizeEnv sets how authorization URLs reach a person for servers
// whose oauth key does not say: "browser", "print" or "follow".
const oauthAuthorizeEnv = "CODEMODE_OAUTH_AUTHORIZE"

// serverOAuth is the OAuth configuration of a streamable HTTP server: on
// unless its oauth key is false, as MCP clients do, since it only starts
// when the server answers 401.
func serverOAuth(s config.MCPServer) (*mcp.OAuth, error) {
	if s.URL == "" || s.SSE || (s.OAuth != nil && s.OAuth.Off) {
		return nil, nil
	}
	c := s.OAuth
	if c == nil {
		c = &config.OAuth{}
	}
	mode := c.Authorize
	if mode == "" {
		mode = os.Getenv(oauthAuthorizeEnv)
	}
	o := c.Client
	o.TokenFile = tokenFile(s.Name, s.URL, o.ClientID)
	switch mode {
	case "", "browser":
		o.Visit = openBrowser
	case "print": // the URL is logged; nothing else
	case "follow":
		o.Visit = mcp.FollowRedirects(nil)
	default:
		return nil, fmt.Errorf("%s is %q; use \"browser\", \"print\" or \"follow\"", oauthAuthorizeEnv, mode)
	}
	return &o, nil
}

// tokenFile is where a server's tokens are kept: the user's configuration
// directory, one file per server name, URL and client, so that two configs
// naming one server differently never share a token by accident. Empty
// (memory only) when there is no such directory.
func tokenFile(name, url, clientID string) string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(url + "\x00" + clientID))
	return filepath.Join(dir, "codemode", "oauth", name+"-"+hex.EncodeToString(sum[:8])+".json")
}

// openBrowser opens the authorization URL where there is a desktop to open
// it on; the URL is logged either way, for a person on another machine.
func openBrowser(_ context.Context, url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
			return nil
		}
		cmd = exec.Command("xdg-open", url)
	}
	// A missing opener is not an error: the URL is in the log.
	if cmd.Start() == nil {
		go cmd.Wait()
	}
	return nil
}
