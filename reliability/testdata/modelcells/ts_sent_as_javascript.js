// status: completed
// value: ["SHP-101","SHP-104","SHP-106","SHP-109"]
type Shipment = { id: string; paid: boolean; tons: number };

const shipments: Shipment[] = await tools.shipping_list();
const paid = shipments.filter((s: Shipment) => s.paid).map((s) => s.id);
return paid;
