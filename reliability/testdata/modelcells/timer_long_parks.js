// server: short
// status: waiting
// wait-status: completed
// wait-value: {"waited":true,"unpaid":8}
// wait-output-contains: checking again
// give the billing job a few seconds, then look again
await new Promise((resolve) => setTimeout(resolve, 5000));
console.log("checking again");
const rows = await tools.shipping_list();
return { waited: true, unpaid: rows.filter((r) => !r.paid).length };
