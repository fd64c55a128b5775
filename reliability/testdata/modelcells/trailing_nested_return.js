// status: completed
// value: ["SHP-101","SHP-104","SHP-106","SHP-109"]
function paidIds(rows) {
  return rows.filter(r => r.paid).map(r => r.id);
}
paidIds(await Shipping.list())
