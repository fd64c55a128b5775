// status: failed
// code: internal_error
// error: Error: invalid API file path
return await API.list("mcp/..");
