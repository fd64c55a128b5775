// status: completed
// value: {"original":false,"copy":true,"sameObject":false,"when":"2026-03-01T00:00:00.000Z"}
const rows = await Shipping.list();
const snapshot = { rows, takenAt: new Date("2026-03-01T00:00:00Z") };
const draft = structuredClone(snapshot);
draft.rows.find(r => r.id === "SHP-102").paid = true; // try the change on a copy first
return {
  original: rows.find(r => r.id === "SHP-102").paid,
  copy: draft.rows.find(r => r.id === "SHP-102").paid,
  sameObject: draft.rows === rows,
  when: draft.takenAt.toISOString(),
};
