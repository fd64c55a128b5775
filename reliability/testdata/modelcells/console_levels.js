// status: completed
// value: {"checked":12,"flagged":2}
// output-contains: checking 12 shipments
// output-contains: [warn] SHP-107 is over 25 t and unpaid
// output-contains: [warn] SHP-111 is over 25 t and unpaid
// output-contains: [error] SHP-999: unknown shipment
// output-contains: [info] done
const rows = await Shipping.list();
console.log(`checking ${rows.length} shipments`);
let flagged = 0;
for (const r of rows) {
  console.debug("row", r.id);
  if (r.tons > 25 && !r.paid) {
    console.warn(`${r.id} is over 25 t and unpaid`);
    flagged++;
  }
}
console.error("SHP-999: unknown shipment");
console.info("done");
return { checked: rows.length, flagged };
