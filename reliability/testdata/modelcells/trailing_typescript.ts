// status: completed
// value: ["Ops team","Build bot"]
type Conversation = { conversationRef: string; label: string; channel: "slack" | "email" | "sms" };
const { conversations } = (await tools.conversations_list({})) as { conversations: Conversation[] };
conversations.filter((c) => c.channel === "slack").map((c) => c.label)
