// status: completed
// value: {"unpaid":8,"tons":130.75}
export default async function main() {
  const shipments = await tools.shipping_list();
  const unpaid = shipments.filter((s) => !s.paid);
  return {
    unpaid: unpaid.length,
    tons: unpaid.reduce((total, s) => total + s.tons, 0),
  };
}
