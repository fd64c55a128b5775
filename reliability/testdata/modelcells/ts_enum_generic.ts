// status: completed
// value: {"slack":2,"email":1,"sms":1}
enum Channel { Slack = "slack", Email = "email", Sms = "sms" }

function countBy<T, K extends string>(items: readonly T[], key: (item: T) => K): Record<K, number> {
  const out = {} as Record<K, number>;
  for (const item of items) out[key(item)] = (out[key(item)] ?? 0) + 1;
  return out;
}

const { conversations } = await tools.conversations_list({});
const counts = countBy(conversations, (c: { channel: string }) => c.channel as Channel);
return counts;
