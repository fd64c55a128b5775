// status: completed
// value: 166
let total = 0
for (const s of await Shipping.list()) total += s.tons
total // tons in all
