// status: completed
// value-contains: "required":["conversationRef","message"]
// value-contains: "ok":true
// value-contains: "conversationRef":"conv_ops_7f3a"
const schema = await tools.describe("conversations_send");
const { conversations } = await tools.conversations_list({ query: "ops" });
const sent = await tools.conversations_send({ conversationRef: conversations[0].conversationRef, message: "Nightly shipment check done." });
return { required: schema.parameters.required, sent };
