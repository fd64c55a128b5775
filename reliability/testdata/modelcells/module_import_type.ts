// status: completed
// value: ["SHP-101","SHP-108"]
import type { Shipment } from "./types";

const shipments = (await tools.shipping_list()) as Shipment[];
shipments.filter((s) => s.tons < 5).map((s) => s.id)
