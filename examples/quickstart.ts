// Quick start: search the hidden catalog for a tool, call it, filter its
// rows inside the cell and report with text(). Only the short answer goes
// back to the model, not the whole table.
//
//   codemode exec examples/quickstart.ts
type Shipment = { id: string; paid: boolean; tons: number };

const [tool] = await tools.search("list shipments");
const shipments: Shipment[] = await tools.callValue(tool.id, {});
const due = shipments.filter((s) => !s.paid && s.tons > 10);
const tons = due.reduce((sum, s) => sum + s.tons, 0);
text(`${tool.id}: ${due.length} of ${shipments.length} shipments are unpaid and over 10 t (${tons} t in all).`);
return due.map((s) => s.id);
