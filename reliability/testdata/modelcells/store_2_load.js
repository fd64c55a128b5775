// session: followup
// status: completed
// value: {"count":8,"first":"SHP-102","when":"2026-03-02"}
const unpaid = await load("unpaid");
const meta = await load("checkedAt");
return { count: unpaid.length, first: unpaid[0], when: meta.when };
