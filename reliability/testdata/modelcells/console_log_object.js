// status: completed
// value: 4
// output-contains: Build bot
// output-contains: conv_build_91c2
const { conversations } = await tools.conversations_list({});
console.log("conversations:", conversations);
console.log(conversations.find(c => c.label === "Build bot"));
return conversations.length;
