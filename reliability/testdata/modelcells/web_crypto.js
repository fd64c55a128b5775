// status: completed
// value: {"unique":3,"v4":true,"bytes":16,"nonzero":true}
const ids = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
const nonce = crypto.getRandomValues(new Uint8Array(16));
return {
  unique: new Set(ids).size,
  v4: ids.every(id => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)),
  bytes: nonce.length,
  nonzero: nonce.some(b => b !== 0),
};
