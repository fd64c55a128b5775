// A call that needs a person's approval. With examples/approval.json5,
// shipping_mark_paid is in tools.approval: under `codemode serve` your MCP
// client asks you (an elicitation) before the call runs. While you decide
// the call is pending, so exec returns "waiting" and wait continues; a
// decline is an error the cell catches. `codemode exec` has no one to ask,
// so the call is refused (tools.approval.withoutClient is "deny").
//
//   codemode serve --config examples/approval.json5                 # run the cell from your client
//   codemode exec --config examples/approval.json5 examples/approval.js   # refused: no one to ask
try {
  const shipment = await Shipping.markPaid("SHP-102");
  return { approved: true, shipment };
} catch (e) {
  return { approved: false, why: e.message };
}
