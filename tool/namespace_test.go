package tool

import (
	"encoding/json"
	"errors"
	"testing"
)

// The default input rule: the first argument, unless it is missing or
// null; a mapper's answer, error included, wins over it.
func TestNamespaceCallableInput(t *testing.T) {
	plain := NamespaceTool("t", nil)
	for args, want := range map[string]string{`[]`: `{}`, `[null]`: `{}`, `[{"a":1},2]`: `{"a":1}`, `[7]`: `7`} {
		var a []json.RawMessage
		json.Unmarshal([]byte(args), &a)
		if got, err := plain.Input(a); err != nil || string(got) != want {
			t.Errorf("%s: %s %v, want %s", args, got, err, want)
		}
	}
	refuse := errors.New("no")
	mapped := NamespaceTool("t", func(args []json.RawMessage) (json.RawMessage, error) { return nil, refuse })
	if _, err := mapped.Input([]json.RawMessage{json.RawMessage(`{}`)}); err != refuse {
		t.Errorf("the mapper's error: %v", err)
	}
}
