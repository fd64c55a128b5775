// status: completed
// value: ["aGk=","hi",2,"6869"]
// Replacing the built-ins Buffer was made from changes nothing it does.
Uint8Array.prototype.set = () => { throw new Error("tampered") };
String.fromCharCode = () => "tampered";
TextEncoder.prototype.encode = () => new Uint8Array(0);
TextDecoder.prototype.decode = () => "tampered";
Array.prototype.push = () => { throw new Error("tampered") };
const b = Buffer.from("hi");
return [b.toString("base64"), Buffer.from("aGk=", "base64").toString(), Buffer.concat([b]).length, b.toString("hex")];
