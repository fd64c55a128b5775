package provider

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
)

// anthropicVersion is the Messages API version the client speaks.
const anthropicVersion = "2023-06-01"

// wire is one kind of API: its path, how a request is written and how its
// answer and error bodies are read.
type wire struct {
	path   string
	body   func(model, system string, msgs []Message, maxTokens int) any
	header func(h http.Header, key string)
	answer func(body []byte) (string, count, error)
	// problem is the message of an error body, or "".
	problem func(body []byte) string
}

var wires = map[string]wire{
	OpenAI: {
		path: "/chat/completions",
		body: func(model, system string, msgs []Message, maxTokens int) any {
			all := append([]Message{{Role: "system", Text: system}}, msgs...)
			type msg struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			}
			out := make([]msg, len(all))
			for i, m := range all {
				out[i] = msg{m.Role, m.Text}
			}
			return map[string]any{"model": model, "messages": out, "max_tokens": maxTokens, "stream": false}
		},
		header: func(h http.Header, key string) {
			if key != "" {
				h.Set("Authorization", "Bearer "+key)
			}
		},
		answer: func(body []byte) (string, count, error) {
			var r struct {
				Choices []struct {
					Message struct {
						Content *string `json:"content"`
						Refusal string  `json:"refusal"`
					} `json:"message"`
				} `json:"choices"`
				Usage struct {
					Prompt     int64 `json:"prompt_tokens"`
					Completion int64 `json:"completion_tokens"`
				} `json:"usage"`
			}
			if err := json.Unmarshal(body, &r); err != nil {
				return "", count{}, errors.New("its answer is not JSON of the chat completions API")
			}
			u := count{max(0, r.Usage.Prompt), max(0, r.Usage.Completion)}
			switch {
			case len(r.Choices) == 0:
				return "", u, errors.New("its answer has no choices")
			case r.Choices[0].Message.Refusal != "":
				return "", u, errors.New("the model refused: " + bounded(r.Choices[0].Message.Refusal))
			case r.Choices[0].Message.Content == nil:
				return "", u, errors.New("its answer has no text content")
			}
			return *r.Choices[0].Message.Content, u, nil
		},
		problem: func(body []byte) string {
			var r struct {
				Error json.RawMessage `json:"error"`
			}
			if json.Unmarshal(body, &r) != nil {
				return ""
			}
			var e struct {
				Message string `json:"message"`
			}
			if json.Unmarshal(r.Error, &e) == nil && e.Message != "" {
				return e.Message
			}
			var s string // some compatible servers send the message itself
			json.Unmarshal(r.Error, &s)
			return s
		},
	},
	Anthropic: {
		path: "/messages",
		body: func(model, system string, msgs []Message, maxTokens int) any {
			type msg struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			}
			out := make([]msg, len(msgs))
			for i, m := range msgs {
				out[i] = msg{m.Role, m.Text}
			}
			return map[string]any{"model": model, "system": system, "messages": out, "max_tokens": maxTokens}
		},
		header: func(h http.Header, key string) {
			h.Set("anthropic-version", anthropicVersion)
			if key != "" {
				h.Set("x-api-key", key)
			}
		},
		answer: func(body []byte) (string, count, error) {
			var r struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
				Usage struct {
					Input  int64 `json:"input_tokens"`
					Output int64 `json:"output_tokens"`
				} `json:"usage"`
			}
			if err := json.Unmarshal(body, &r); err != nil {
				return "", count{}, errors.New("its answer is not JSON of the Messages API")
			}
			u := count{max(0, r.Usage.Input), max(0, r.Usage.Output)}
			var b strings.Builder
			text := false
			for _, c := range r.Content {
				if c.Type == "text" {
					b.WriteString(c.Text)
					text = true
				}
			}
			if !text {
				return "", u, errors.New("its answer has no text content")
			}
			return b.String(), u, nil
		},
		problem: func(body []byte) string {
			var r struct {
				Error struct {
					Message string `json:"message"`
				} `json:"error"`
			}
			json.Unmarshal(body, &r)
			return r.Error.Message
		},
	},
}
