// session: followup
// status: completed
// value: "saved 8 ids"
const rows = await tools.shipping_list();
const unpaid = rows.filter(r => !r.paid).map(r => r.id);
await store("unpaid", unpaid);
await store("checkedAt", { when: "2026-03-02", by: "agent" });
return `saved ${unpaid.length} ids`;
