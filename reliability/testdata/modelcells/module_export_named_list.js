// status: completed
// output-contains: found 12 shipments
const shipments = await tools.shipping_list();
const count = shipments.length;
console.log(`found ${count} shipments`);

export { count };
