package catalog

import (
	"reflect"
	"slices"
	"testing"
)

// A catalog built with Reuse is the catalog built without it: the same
// entries, quick index, MCP servers, declarations and search results, for a
// run that adds client tools and for one where a tool changed.
func TestReuseBuildsTheSameCatalog(t *testing.T) {
	base := benchTools(600)
	var kept []Tool
	for _, tool := range base {
		if tool.Origin != OriginClient {
			kept = append(kept, tool)
		}
	}
	prev, err := Build(kept, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := slices.Clone(kept)
	changed[3].InputSchema = []byte(`{"type":"object","properties":{"other":{"type":"number"}}}`)
	changed[4].Description = "Another description."
	for name, tools := range map[string][]Tool{
		"client tools added": append(slices.Clone(kept), Tool{Name: "pick", Origin: OriginClient, Owner: "app"}, Tool{Name: "list_issue_1", Origin: OriginClient}),
		"a tool changed":     changed,
	} {
		t.Run(name, func(t *testing.T) {
			want, err := Build(tools, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Build(tools, &BuildOptions{Reuse: prev})
			if err != nil {
				t.Fatal(err)
			}
			if shares := got.shared == prev; shares != (name == "client tools added") {
				t.Errorf("shares the previous catalog's derived data: %v", shares)
			}
			if !reflect.DeepEqual(got.Entries(), want.Entries()) {
				t.Error("entries differ")
			}
			if got.QuickIndex() != want.QuickIndex() || !reflect.DeepEqual(got.MCPServers(), want.MCPServers()) ||
				!reflect.DeepEqual(got.APIFiles().Files(), want.APIFiles().Files()) || got.Sources() != want.Sources() {
				t.Error("derived data differs")
			}
			for _, q := range []string{"list issue", "pick", "search record", ""} {
				g, _ := got.Search(q, 20)
				w, _ := want.Search(q, 20)
				gm, _ := got.MCPSearch(q, 20)
				wm, _ := want.MCPSearch(q, 20)
				if !reflect.DeepEqual(g, w) || !reflect.DeepEqual(gm, wm) {
					t.Errorf("search %q differs", q)
				}
			}
			if _, err := got.Resolve("pick"); name == "client tools added" && err != nil {
				t.Error(err)
			}
		})
	}
}
