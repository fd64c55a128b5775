// Several nested calls in flight at once, then a discover-then-send step in
// the same cell: the quick index declares conversations_list's output, so
// the cell can use its fields without an inspection turn.
//
//   codemode exec --trace examples/parallel.js
const [shipments, listed, echo] = await Promise.all([
  tools.shipping_list({}),
  tools.conversations_list({ query: "build" }),
  tools.slow_echo({ ms: 50, value: "pong" }),
]);
const unpaid = shipments.filter((s) => !s.paid);
const target = listed.conversations.find((c) => c.label === "Build bot");
if (!target) throw new Error("conversation not found");
const sent = await tools.conversations_send({
  conversationRef: target.conversationRef,
  message: `${unpaid.length} shipments are still unpaid.`,
});
let failure = null;
try {
  await tools.always_fail({});
} catch (err) {
  failure = String(err.message ?? err);
}
return { unpaid: unpaid.length, sentTo: target.label, messageId: sent.messageId, echo: echo.value, failure };
