// status: completed
// value: {"ok":false,"error":"always_fail: this demo tool always fails","fallback":12}
let result;
try {
  result = await tools.always_fail({ reason: "check" });
} catch (e) {
  const rows = await tools.shipping_list();
  return { ok: false, error: e.message, fallback: rows.length };
}
return { ok: true, result };
