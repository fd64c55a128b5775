// status: completed
// value: null
// output-contains: 8 unpaid shipments
// output-contains: heaviest unpaid: SHP-107 31
const shipments = await tools.shipping_list();
const unpaid = shipments.filter(s => !s.paid);
console.log(`${unpaid.length} unpaid shipments`);
const heaviest = unpaid.sort((a, b) => b.tons - a.tons)[0];
console.log("heaviest unpaid:", heaviest.id, heaviest.tons);
