// status: completed
// value: "Total weight: 166 t"
async function main() {
  const list = await tools.shipping_list();
  const total = list.reduce((sum, s) => sum + s.tons, 0);
  return `Total weight: ${total} t`;
}
