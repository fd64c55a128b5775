// status: completed
// value: "SHP-107"
export {};

interface Shipment {
  id: string;
  paid: boolean;
  tons: number;
}

const shipments: Shipment[] = await tools.shipping_list();
const heaviest = shipments.reduce((a, b) => (b.tons > a.tons ? b : a));
heaviest.id;
