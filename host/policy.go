package host

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

func blocked(id, reason string) error {
	return fmt.Errorf("Tool %q was blocked before execution: %s", id, reason)
}

// contracts compiles trusted output schemas once per Runtime.
type contracts struct {
	mu       sync.Mutex
	compiled map[string]*contract // by catalog id and schema text
}

type contract struct {
	resolved *jsonschema.Resolved
	err      error
}

func (c *contracts) get(id string, schema json.RawMessage) *contract {
	key := id + "\x00" + string(schema)
	c.mu.Lock()
	defer c.mu.Unlock()
	if k, ok := c.compiled[key]; ok {
		return k
	}
	if c.compiled == nil {
		c.compiled = map[string]*contract{}
	}
	k := &contract{}
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		k.err = err
	} else {
		k.resolved, k.err = s.Resolve(nil)
	}
	c.compiled[key] = k
	return k
}

// checkDetails validates a result's details against the tool's declared
// output schema, and returns them as the JSON it checked, so they are not
// encoded again. The value is never printed: it may be large or private.
func checkDetails(k *contract, id string, details any) (any, error) {
	b, err := json.Marshal(details)
	if err != nil {
		return nil, fmt.Errorf("Tool %q returned details that are not JSON-compatible.", id)
	}
	var v any
	json.Unmarshal(b, &v)
	if k.resolved.Validate(v) != nil {
		return nil, fmt.Errorf("Tool %q returned details that do not match its declared outputSchema.", id)
	}
	return json.RawMessage(b), nil
}
