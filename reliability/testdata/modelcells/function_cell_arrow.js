// status: completed
// value: 6
async () => {
  const shipments = await tools.shipping_list();
  const overdue = shipments.filter((s) => !s.paid && s.tons > 10);
  return overdue.length;
}
