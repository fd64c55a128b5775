// status: completed
// value: {"unpaid":null,"fallback":[]}
const saved = await load("unpaid");
return { unpaid: saved ?? null, fallback: saved ?? [] };
