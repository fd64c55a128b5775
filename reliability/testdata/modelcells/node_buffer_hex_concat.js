// status: completed
// value: {"hex":"cafe0102","length":4,"text":"héllo","bytes":6}
const header = Buffer.from("cafe", "hex");
const body = Buffer.from([1, 2]);
const packet = Buffer.concat([header, body]);
return { hex: packet.toString("hex"), length: packet.length, text: Buffer.from("héllo").toString(), bytes: Buffer.byteLength("héllo") };
