package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/seed11a79d2d/codemode/tool"
)

// Approve is a [tool.Hooks] Approve that asks the person at the client of
// the call's session, through elicitation/create: the tool's id and its
// whole input, legible, with secret-looking values hidden (inputView),
// accept or decline. An input that cannot be shown whole is declined
// without asking, saying why. It blocks until they answer, so the call
// stays pending like a slow one (exec returns waiting; wait continues). A client without
// elicitation, or a call with no session, gets AllowWithoutElicitation.
func (r *Relay) Approve(ctx context.Context, e tool.Event) (bool, string, error) {
	id := e.ToolID
	if id == "" {
		id = e.ToolName
	}
	ss, _, err := r.session(e.Scope)
	if err == nil {
		if caps := clientCapabilities(ss); caps == nil || caps.Elicitation == nil {
			err = errors.New("the client does not support elicitation")
		}
	}
	if err != nil {
		if r.AllowWithoutElicitation {
			return true, "", nil
		}
		return false, "it needs a person's approval, and " + err.Error(), nil
	}
	view, err := inputView(e.Input)
	if err != nil {
		return false, err.Error(), nil // the person is not asked
	}
	quoted := quoteView(id)
	res, err := ss.Elicit(ctx, &sdk.ElicitParams{
		Message: fmt.Sprintf("A cell wants to call %s with %s. Allow it?", quoted[1:len(quoted)-1], view),
		// No fields: the answer is the action, accept or decline.
		RequestedSchema: json.RawMessage(`{"type":"object","properties":{}}`),
	})
	if err != nil {
		return false, "", fmt.Errorf("asking the client: %w", err)
	}
	switch res.Action {
	case "accept":
		return true, "", nil
	case "decline":
		return false, "the person at the client declined", nil
	}
	return false, "the person at the client cancelled the approval", nil
}

// secretKey reports whether an approval prompt hides the value of key k:
// one of its words (split at _ - . spaces, digits and camelCase) is a
// secret word (token, password...), or two of them name a key (api key,
// private key, session id), or it is one word that ends in a secret word
// (ACCESSTOKEN). Whole words only: author, keys, keyword and session_name
// stay visible.
func secretKey(k string) bool {
	words := keyWords(k)
	for i, w := range words {
		if secretWords[w] || len(words) == 1 && hasSecretSuffix(w) {
			return true
		}
		if i > 0 && keyQualifiers[words[i-1]] && (w == "key" || w == "keys" || words[i-1] == "session" && w == "id") {
			return true
		}
	}
	return false
}

var secretWords = map[string]bool{
	"password": true, "passwords": true, "passwd": true, "passphrase": true, "pass": true, "pwd": true,
	"secret": true, "secrets": true, "token": true, "tokens": true, "cookie": true, "cookies": true,
	"credential": true, "credentials": true, "auth": true, "authorization": true, "bearer": true,
	"apikey": true, "apikeys": true, "privatekey": true, "jwt": true, "otp": true, "sessionid": true,
}

// keyQualifiers make the next word key (or id, after session) a secret.
var keyQualifiers = map[string]bool{
	"api": true, "private": true, "secret": true, "access": true, "signing": true,
	"encryption": true, "client": true, "master": true, "session": true, "license": true,
}

func hasSecretSuffix(w string) bool {
	for _, s := range []string{"token", "tokens", "password", "passwd", "secret", "secrets", "apikey"} {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// keyWords splits a key into lower-case words: at every character that is
// not a letter or digit, between letters and digits, before an upper-case
// letter that follows a lower-case one (apiKey), and before the last
// capital of a run followed by a lower-case letter (APIKey: api, key).
func keyWords(k string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(k)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if i > 0 {
			p := rs[i-1]
			upperAfterLower := unicode.IsUpper(r) && (unicode.IsLower(p) || unicode.IsDigit(p))
			acronymEnd := unicode.IsUpper(r) && unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if upperAfterLower || acronymEnd || unicode.IsDigit(r) != unicode.IsDigit(p) {
				flush()
			}
		}
		cur = append(cur, unicode.ToLower(r))
	}
	flush()
	return words
}
