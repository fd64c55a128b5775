// status: completed
// value: {"channels":["email","slack","sms"],"byChannel":{"slack":["Ops team","Build bot"],"email":["Finance"],"sms":["Alice Moreau"]}}
const { conversations } = await tools.conversations_list();
const byChannel = new Map();
for (const c of conversations) {
  if (!byChannel.has(c.channel)) byChannel.set(c.channel, []);
  byChannel.get(c.channel).push(c.label);
}
const channels = new Set(conversations.map(c => c.channel));
return { channels: [...channels].sort(), byChannel: Object.fromEntries(byChannel) };
