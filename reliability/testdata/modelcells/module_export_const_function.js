// status: completed
// value: ["SHP-105","SHP-107","SHP-111"]
export const THRESHOLD = 20;

export function isHeavy(shipment) {
  return shipment.tons > THRESHOLD;
}

const shipments = await tools.shipping_list();
shipments.filter(isHeavy).map((s) => s.id);
