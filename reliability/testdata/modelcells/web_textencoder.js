// status: completed
// value: {"chars":11,"bytes":13,"roundTrip":"Zürich café","hex":"5a c3 bc 72"}
const label = "Zürich café";
const bytes = new TextEncoder().encode(label);
const back = new TextDecoder().decode(bytes);
const hex = Array.from(bytes.slice(0, 4), b => b.toString(16).padStart(2, "0")).join(" ");
return { chars: label.length, bytes: bytes.length, roundTrip: back, hex };
