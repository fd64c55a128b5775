// status: completed
// value: [{"id":"SHP-107","tons":31},{"id":"SHP-111","tons":26.75},{"id":"SHP-105","tons":22}]
type Shipment = { id: string; paid: boolean; tons: number };

const rows = (await tools.shipping_list()) as Shipment[];
const top = rows
  .filter((r): r is Shipment => !r.paid)
  .sort((a, b) => b.tons - a.tons)
  .slice(0, 3)
  .map(({ id, tons }) => ({ id, tons }));
return top;
