// status: failed
// code: internal_error
// error: Error: then
export default { get then() { throw new Error("then"); } };
