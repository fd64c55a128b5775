package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DocsServerName is the name the demo gives its MCP server, so its tools are
// mcp:docs:<tool> and the guest reaches them as MCP.docs.
const DocsServerName = "docs"

// docPage is one page of the docs server's tiny handbook.
type docPage struct {
	Slug, Title, Body string
}

var handbook = []docPage{
	{"shipping", "Shipping", "Shipments are paid when the customer settles the invoice. Mark a shipment paid only after finance confirms it."},
	{"release", "Release process", "Tag the release, let the build bot post to the Build bot conversation, then send the release memo."},
	{"oncall", "On-call", "The ops team owns on-call. Page the Ops team conversation for anything that blocks shipping."},
}

// memo is the text of the resource memo://one.
const memo = "Release memo: version 1.4 ships on Friday. Freeze merges on Thursday at noon."

// NewDocsServer returns the demo's MCP server: a search_docs tool over a
// three-page handbook, the resource memo://one and the prompt brief. Connect
// it to an in-process transport (the SDK's in-memory pair) so MCP and API
// work without Node or a child process.
func NewDocsServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "codemode-demo-docs", Version: "1.0.0"}, nil)
	s.AddTool(&sdk.Tool{
		Name:        "search_docs",
		Title:       "Search the handbook",
		Description: "Search the team handbook and return matching pages.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{` +
			`"query":{"type":"string","description":"Words to look for"},` +
			`"limit":{"type":"integer","description":"Most pages to return","default":3}},"required":["query"]}`),
	}, searchDocs)
	s.AddResource(&sdk.Resource{URI: "memo://one", Name: "one", Title: "Release memo", MIMEType: "text/plain"},
		func(_ context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
			return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.Params.URI, MIMEType: "text/plain", Text: memo}}}, nil
		})
	s.AddPrompt(&sdk.Prompt{
		Name:        "brief",
		Description: "Ask for a short brief on a topic.",
		Arguments:   []*sdk.PromptArgument{{Name: "topic", Description: "What the brief is about", Required: true}},
	}, func(_ context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		topic := r.Params.Arguments["topic"]
		return &sdk.GetPromptResult{
			Description: "A brief on " + topic,
			Messages: []*sdk.PromptMessage{{Role: "user", Content: &sdk.TextContent{
				Text: fmt.Sprintf("Write a three-line brief on %s for the team, using the handbook.", topic)}}},
		}, nil
	})
	return s
}

type docHit struct {
	Slug    string `json:"slug"`
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
}

func searchDocs(_ context.Context, r *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var in struct {
		Query string `json:"query"`
		Limit *int   `json:"limit"`
	}
	if err := json.Unmarshal(r.Params.Arguments, &in); err != nil {
		return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "invalid arguments: " + err.Error()}}}, nil
	}
	limit := 3
	if in.Limit != nil && *in.Limit > 0 {
		limit = *in.Limit
	}
	words := strings.Fields(strings.ToLower(in.Query))
	hits := []docHit{}
	for _, p := range handbook {
		text := strings.ToLower(p.Title + " " + p.Body)
		for _, w := range words {
			if strings.Contains(text, w) {
				hits = append(hits, docHit{Slug: p.Slug, Title: p.Title, Snippet: p.Body})
				break
			}
		}
		if len(hits) == limit {
			break
		}
	}
	titles := make([]string, len(hits))
	for i, h := range hits {
		titles[i] = h.Title
	}
	summary := fmt.Sprintf("%d pages: %s", len(hits), strings.Join(titles, ", "))
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: summary}},
		StructuredContent: map[string]any{"pages": hits},
	}, nil
}
