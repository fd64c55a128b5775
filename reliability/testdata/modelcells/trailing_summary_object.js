// status: completed
// value: {"total":166,"paid":35.25,"unpaid":130.75,"share":"21.2%"}
const rows = await tools.shipping_list();
const total = rows.reduce((sum, r) => sum + r.tons, 0);
const paid = rows.filter(r => r.paid).reduce((sum, r) => sum + r.tons, 0);
const summary = { total, paid, unpaid: total - paid, share: (100 * paid / total).toFixed(1) + "%" };
summary;
