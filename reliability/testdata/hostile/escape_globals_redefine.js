// status: completed
// value: [false, "object", "object", "function"]
let deleted = false;
try { deleted = delete globalThis.tools; } catch (e) {}
try { Object.defineProperty(globalThis, "API", { value: 1 }); } catch (e) {}
try { globalThis.namespaces = null; } catch (e) {}
try { globalThis.text = null; } catch (e) {}
return [deleted, typeof API, typeof namespaces, typeof text];
