// status: failed
// code: internal_error
return await eval("imp" + "ort(\"fs\")");
