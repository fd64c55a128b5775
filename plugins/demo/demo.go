// Package demo is the demo plugin of the codemode command: a small in-memory
// world of shipments and conversations whose tools exercise what a user
// should see Code Mode do on day one. Declared output schemas give quick-index
// hints, slow_echo suspends a cell into wait, always_fail shows a tool error,
// chart_image is a direct-only tool that returns a picture, the Shipping
// namespace is a concise domain API over two of the tools, and an MCP server
// named docs (see [NewDocsServer]) has a tool, a resource and a prompt.
//
// Every tool is registered under the plugin id "demo", so its catalog ids are
// openclaw:demo:<name>.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seed11a79d2d/codemode/tool"
)

// PluginID is the owner of every demo tool.
const PluginID = "demo"

// MaxSleep caps slow_echo's ms.
const MaxSleep = 60 * time.Second

// Shipment is one row of shipping_list.
type Shipment struct {
	ID   string  `json:"id"`
	Paid bool    `json:"paid"`
	Tons float64 `json:"tons"`
}

// Conversation is one entry of conversations_list.
type Conversation struct {
	ConversationRef string `json:"conversationRef"`
	Label           string `json:"label"`
	Channel         string `json:"channel"`
}

// Message is one message sent with conversations_send.
type Message struct {
	MessageID       string `json:"messageId"`
	ConversationRef string `json:"conversationRef"`
	Message         string `json:"message"`
}

// Plugin is one in-memory demo world. Its state starts the same every time
// and lives as long as the Plugin. A Plugin is safe for concurrent use.
type Plugin struct {
	mu            sync.Mutex
	shipments     []Shipment
	conversations []Conversation
	sent          []Message
}

// New returns a demo world at its initial state: twelve shipments, four of
// them paid, and four conversations.
func New() *Plugin {
	return &Plugin{
		shipments: []Shipment{
			{"SHP-101", true, 4}, {"SHP-102", false, 12.5}, {"SHP-103", false, 18},
			{"SHP-104", true, 7.25}, {"SHP-105", false, 22}, {"SHP-106", true, 9},
			{"SHP-107", false, 31}, {"SHP-108", false, 3.5}, {"SHP-109", true, 15},
			{"SHP-110", false, 11}, {"SHP-111", false, 26.75}, {"SHP-112", false, 6},
		},
		conversations: []Conversation{
			{ConversationRef: "conv_ops_7f3a", Label: "Ops team", Channel: "slack"},
			{ConversationRef: "conv_build_91c2", Label: "Build bot", Channel: "slack"},
			{ConversationRef: "conv_finance_0d4e", Label: "Finance", Channel: "email"},
			{ConversationRef: "conv_alice_5b18", Label: "Alice Moreau", Channel: "sms"},
		},
	}
}

// Shipments returns a copy of the current shipments.
func (p *Plugin) Shipments() []Shipment {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.shipments)
}

// Sent returns a copy of the messages sent so far.
func (p *Plugin) Sent() []Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.sent)
}

// Tools returns the plugin's tools, in a fixed order.
func (p *Plugin) Tools() []tool.Tool {
	return []tool.Tool{
		{
			Name:        "shipping_list",
			Plugin:      PluginID,
			Label:       "List shipments",
			Description: "List shipments with their id, whether they are paid, and their weight in tons.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"object","properties":{` +
				`"id":{"type":"string"},"paid":{"type":"boolean"},"tons":{"type":"number"}},` +
				`"required":["id","paid","tons"],"additionalProperties":false}}`),
			ReplaySafe: true,
			Execute:    p.shippingList,
		},
		{
			Name:        "shipping_mark_paid",
			Plugin:      PluginID,
			Label:       "Mark a shipment paid",
			Description: "Mark one shipment as paid by its id. Changes state.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"Shipment id, like SHP-101."}},` +
				`"required":["id"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"paid":{"type":"boolean"},` +
				`"changed":{"type":"boolean"}},"required":["id","paid","changed"],"additionalProperties":false}`),
			Execute: p.shippingMarkPaid,
		},
		{
			Name:        "conversations_list",
			Plugin:      PluginID,
			Label:       "List conversations",
			Description: "List conversations the assistant can post to, optionally filtered by a query on the label.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"Words to match in the label."}},` +
				`"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"conversations":{"type":"array","items":{"type":"object",` +
				`"properties":{"conversationRef":{"type":"string"},"label":{"type":"string"},"channel":{"type":"string"}},` +
				`"required":["conversationRef","label","channel"],"additionalProperties":false}}},` +
				`"required":["conversations"],"additionalProperties":false}`),
			ReplaySafe: true,
			Execute:    p.conversationsList,
		},
		{
			Name:        "conversations_send",
			Plugin:      PluginID,
			Label:       "Send a message",
			Description: "Send a message to a conversation by its conversationRef. Changes state.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"conversationRef":{"type":"string"},"message":{"type":"string"}},` +
				`"required":["conversationRef","message"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"},"messageId":{"type":"string"},` +
				`"conversationRef":{"type":"string"}},"required":["ok","messageId","conversationRef"],"additionalProperties":false}`),
			Execute: p.conversationsSend,
		},
		{
			Name:        "slow_echo",
			Plugin:      PluginID,
			Label:       "Slow echo",
			Description: "Wait ms milliseconds (at most 60000), then return value unchanged. Use it to see waiting and wait.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer","minimum":0,"maximum":60000},` +
				`"value":{"description":"Any JSON value to echo."}},"required":["ms"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"value":{},"sleptMs":{"type":"integer"}},` +
				`"required":["sleptMs"],"additionalProperties":false}`),
			ReplaySafe: true,
			Execute:    p.slowEcho,
		},
		{
			Name:        "always_fail",
			Plugin:      PluginID,
			Label:       "Always fail",
			Description: "Fail every time with a tool error, to show how a cell sees one.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":true}`),
			Execute: func(context.Context, tool.Call) (tool.Result, error) {
				return tool.Result{}, errors.New("always_fail: this demo tool always fails")
			},
		},
		{
			Name:        "chart_image",
			Plugin:      PluginID,
			Label:       "Tonnage chart",
			Description: "Render the shipments' tonnage as a small PNG bar chart (paid bars green, unpaid orange).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`),
			DirectOnly:  true,
			Execute:     p.chartImage,
		},
	}
}

func textContent(s string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
	return b
}

func decode(call tool.Call, v any) error {
	if len(call.Input) == 0 {
		return nil
	}
	if err := json.Unmarshal(call.Input, v); err != nil {
		return fmt.Errorf("invalid input: %v", err)
	}
	return nil
}

func (p *Plugin) shippingList(context.Context, tool.Call) (tool.Result, error) {
	rows := p.Shipments()
	unpaid := 0
	for _, s := range rows {
		if !s.Paid {
			unpaid++
		}
	}
	return tool.Result{
		Content: []json.RawMessage{textContent(fmt.Sprintf("%d shipments, %d unpaid.", len(rows), unpaid))},
		Details: rows,
	}, nil
}

func (p *Plugin) shippingMarkPaid(_ context.Context, call tool.Call) (tool.Result, error) {
	var in struct {
		ID string `json:"id"`
	}
	if err := decode(call, &in); err != nil {
		return tool.Result{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.shipments {
		if p.shipments[i].ID == in.ID {
			changed := !p.shipments[i].Paid
			p.shipments[i].Paid = true
			return tool.Result{
				Content: []json.RawMessage{textContent(in.ID + " is paid.")},
				Details: map[string]any{"id": in.ID, "paid": true, "changed": changed},
			}, nil
		}
	}
	return tool.Result{}, fmt.Errorf("unknown shipment id %q", in.ID)
}

func (p *Plugin) conversationsList(_ context.Context, call tool.Call) (tool.Result, error) {
	var in struct {
		Query string `json:"query"`
	}
	if err := decode(call, &in); err != nil {
		return tool.Result{}, err
	}
	words := strings.Fields(strings.ToLower(in.Query))
	out := []Conversation{}
	p.mu.Lock()
	for _, c := range p.conversations {
		label := strings.ToLower(c.Label)
		if slices.ContainsFunc(words, func(w string) bool { return strings.Contains(label, w) }) || len(words) == 0 {
			out = append(out, c)
		}
	}
	p.mu.Unlock()
	return tool.Result{
		Content: []json.RawMessage{textContent(fmt.Sprintf("%d conversations.", len(out)))},
		Details: map[string]any{"conversations": out},
	}, nil
}

func (p *Plugin) conversationsSend(_ context.Context, call tool.Call) (tool.Result, error) {
	var in struct {
		ConversationRef string `json:"conversationRef"`
		Message         string `json:"message"`
	}
	if err := decode(call, &in); err != nil {
		return tool.Result{}, err
	}
	if strings.TrimSpace(in.Message) == "" {
		return tool.Result{}, errors.New("message must not be empty")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !slices.ContainsFunc(p.conversations, func(c Conversation) bool { return c.ConversationRef == in.ConversationRef }) {
		return tool.Result{}, fmt.Errorf("unknown conversationRef %q", in.ConversationRef)
	}
	m := Message{MessageID: fmt.Sprintf("msg_%d", len(p.sent)+1), ConversationRef: in.ConversationRef, Message: in.Message}
	p.sent = append(p.sent, m)
	return tool.Result{
		Content: []json.RawMessage{textContent("Sent " + m.MessageID + ".")},
		Details: map[string]any{"ok": true, "messageId": m.MessageID, "conversationRef": m.ConversationRef},
	}, nil
}

func (p *Plugin) slowEcho(ctx context.Context, call tool.Call) (tool.Result, error) {
	var in struct {
		MS    *float64        `json:"ms"`
		Value json.RawMessage `json:"value"`
	}
	if err := decode(call, &in); err != nil {
		return tool.Result{}, err
	}
	if in.MS == nil || *in.MS < 0 || *in.MS != float64(int64(*in.MS)) {
		return tool.Result{}, errors.New("ms must be a non-negative integer")
	}
	d := time.Duration(*in.MS) * time.Millisecond
	if d > MaxSleep {
		return tool.Result{}, fmt.Errorf("ms must be at most %d", MaxSleep.Milliseconds())
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return tool.Result{}, ctx.Err()
	case <-t.C:
	}
	details := map[string]any{"sleptMs": d.Milliseconds()}
	if len(in.Value) > 0 {
		details["value"] = in.Value
	}
	return tool.Result{Content: []json.RawMessage{textContent(fmt.Sprintf("Echoed after %d ms.", d.Milliseconds()))}, Details: details}, nil
}
