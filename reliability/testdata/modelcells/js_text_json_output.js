// status: completed
// value: "done"
// output-contains: 8 unpaid of 12
// output-contains: {"heaviest":"SHP-107","tons":31}
const rows = await Shipping.list();
const unpaid = rows.filter(r => !r.paid);
text(`${unpaid.length} unpaid of ${rows.length}`);
const heaviest = unpaid.reduce((a, b) => (b.tons > a.tons ? b : a));
json({ heaviest: heaviest.id, tons: heaviest.tons });
return "done";
