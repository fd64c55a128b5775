package provider

import (
	"encoding/json"
	"fmt"
	"strings"
)

// SystemPrompt is what a child is told of its place: a sub-agent started by
// a program as label, whose reply the program reads as it is, and with a
// schema, that the reply is only JSON that matches it. Sampling and the
// provider tell a child the same.
func SystemPrompt(label string, schema json.RawMessage) string {
	var b strings.Builder
	b.WriteString("You are a sub-agent started by a program")
	if label != "" {
		fmt.Fprintf(&b, " as %q", label)
	}
	b.WriteString(". Do the task in the user message and reply with your final answer only; the program reads your reply as it is.")
	if len(schema) > 0 {
		b.WriteString(" Reply with only a JSON value, no prose and no code fence, that matches this JSON Schema: ")
		b.Write(schema)
	}
	return b.String()
}
