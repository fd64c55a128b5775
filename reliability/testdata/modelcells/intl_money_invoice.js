// status: completed
// value: {"lines":["Widget × 3: $59.97","Gadget × 1: $1,299.00","Shipping: $12.50"],"total":"$1,371.47","inEuros":"1.262,71\u00a0€","compact":"$1.4K"}
// An invoice summary, formatted the way a model formats money.
const items = [
  { name: "Widget", qty: 3, price: 19.99 },
  { name: "Gadget", qty: 1, price: 1299 },
];
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = items.map((i) => `${i.name} × ${i.qty}: ${usd.format(i.qty * i.price)}`);
lines.push(`Shipping: ${(12.5).toLocaleString("en-US", { style: "currency", currency: "USD" })}`);
const total = items.reduce((s, i) => s + i.qty * i.price, 12.5);
return {
  lines,
  total: usd.format(total),
  inEuros: (total * 0.9207).toLocaleString("de-DE", { style: "currency", currency: "EUR" }),
  compact: new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact" }).format(total),
};
