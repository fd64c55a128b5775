// status: failed
// code: internal_error
return await new Function("return imp" + "ort(\"fs\")")();
