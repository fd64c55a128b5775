// status: completed
// value: 8
const rows = await Shipping.list();
rows.filter(r => !r.paid).length
