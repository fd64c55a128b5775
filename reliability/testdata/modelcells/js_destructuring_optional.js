// status: completed
// value: {"first":"Ops team","others":3,"fifth":"none","channel":"slack","missingDeep":null}
const { conversations: [first, ...rest] = [] } = await tools.conversations_list({});
const { label, channel = "unknown" } = first ?? {};
return {
  first: label,
  others: rest.length,
  fifth: rest[3]?.label ?? "none",
  channel,
  missingDeep: first?.owner?.name ?? null,
};
