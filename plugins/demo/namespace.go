package demo

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/seed11a79d2d/codemode/tool"
)

// Namespaces returns the demo's code-mode namespaces: Shipping, a concise
// domain API over shipping_list and shipping_mark_paid. Register them with
// [host.Runtime.RegisterNamespace] under [PluginID].
func (p *Plugin) Namespaces() []tool.Namespace {
	return []tool.Namespace{{
		ID:          "demo.shipping",
		GlobalName:  "Shipping",
		Description: "Shipping is the demo's shipments as a namespace.",
		Prompt: "Shipping.list() resolves to every shipment ({ id, paid, tons }); " +
			"Shipping.markPaid(id) marks one paid. Shipping.unit names the weight unit.",
		RequiredToolNames: []string{"shipping_list", "shipping_mark_paid"},
		CreateScope: func(context.Context, tool.NamespaceContext) (any, error) {
			return map[string]any{
				"unit":     "tons",
				"list":     tool.NamespaceTool("shipping_list", nil),
				"markPaid": tool.NamespaceTool("shipping_mark_paid", markPaidInput),
			}, nil
		},
	}}
}

// markPaidInput maps Shipping.markPaid(id) onto shipping_mark_paid's input.
func markPaidInput(args []json.RawMessage) (json.RawMessage, error) {
	var id string
	if len(args) == 0 || json.Unmarshal(args[0], &id) != nil {
		return nil, errors.New("Shipping.markPaid takes a shipment id string")
	}
	return json.Marshal(map[string]string{"id": id})
}
