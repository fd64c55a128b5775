// status: completed
// value: {"heavy":3,"light":9}
interface Shipment {
  id: string;
  tons: number;
}

export default async function main(): Promise<Record<string, number>> {
  const rows = (await tools.shipping_list()) as Shipment[];
  const heavy = rows.filter((r) => r.tons > 20).length;
  return { heavy, light: rows.length - heavy };
}
