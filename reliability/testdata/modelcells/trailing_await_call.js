// status: completed
// value: {"conversations":[{"conversationRef":"conv_build_91c2","label":"Build bot","channel":"slack"}]}
await tools.conversations_list({ query: "build" })
