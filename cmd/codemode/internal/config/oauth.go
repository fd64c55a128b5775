package config

import (
	"strconv"

	"github.com/seed11a79d2d/codemode/plugins/mcp"
)

// OAuth is a server's oauth key. A streamable HTTP server without one gets
// the defaults (dynamic registration, a browser), as clients do: OAuth only
// starts when the server answers 401.
type OAuth struct {
	// Off is "oauth": false: a 401 is an error, not a prompt.
	Off bool
	// Client holds clientId, clientSecret, clientMetadataUrl, grant
	// ("client_credentials" sets ClientCredentials), scopes and
	// redirectPort; the command adds how to visit and where tokens live.
	Client mcp.OAuth
	// Authorize is how the authorization URL reaches a person: "browser"
	// (print it and open a browser where there is one), "print", or
	// "follow" (no person: fetch it and follow its redirects, for CI).
	// Empty means the environment's CODEMODE_OAUTH_AUTHORIZE, else browser.
	Authorize string
}

// Authorize values.
var authorizeModes = map[string]bool{"browser": true, "print": true, "follow": true}

func (d *decoder) oauth(n *Node, field string, s *MCPServer) {
	o := &OAuth{}
	s.OAuth = o
	c := &o.Client
	if n.Kind == Bool {
		o.Off = !n.Bool
		return
	}
	expanded := func(dst *string) func(*Node, string) {
		return func(v *Node, f string) { d.str(v, f, dst); d.expand(v, f, dst) }
	}
	var grant string
	var grantNode *Node
	d.object(n, field, map[string]func(*Node, string){
		"clientId":          expanded(&c.ClientID),
		"clientSecret":      expanded(&c.ClientSecret),
		"clientMetadataUrl": expanded(&c.ClientMetadataURL),
		"scopes":            func(v *Node, f string) { d.strings(v, f, &c.Scopes) },
		"grant": func(v *Node, f string) {
			grantNode = v
			d.str(v, f, &grant)
		},
		"redirectPort": func(v *Node, f string) {
			p, err := strconv.Atoi(v.Num)
			if v.Kind != Number || err != nil || p < 1 || p > 65535 {
				d.fail(v, f, "must be a port number from 1 to 65535")
				return
			}
			c.RedirectPort = p
		},
		"authorize": func(v *Node, f string) {
			d.str(v, f, &o.Authorize)
			if d.err == nil && !authorizeModes[o.Authorize] {
				d.fail(v, f, "must be \"browser\", \"print\" or \"follow\", not %q", o.Authorize)
			}
		},
	})
	if d.err != nil {
		return
	}
	switch grant {
	case "", "authorization_code":
	case "client_credentials":
		c.ClientCredentials = true
		if c.ClientID == "" || c.ClientSecret == "" {
			d.fail(grantNode, field+".grant", "\"client_credentials\" needs clientId and clientSecret")
		}
	default:
		d.fail(grantNode, field+".grant", "must be \"authorization_code\" or \"client_credentials\", not %q", grant)
	}
	if c.ClientSecret != "" && c.ClientID == "" {
		d.fail(n, field, "clientSecret needs clientId")
	}
}
