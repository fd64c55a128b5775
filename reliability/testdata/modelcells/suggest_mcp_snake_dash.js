// status: failed
// code: internal_error
// error: TypeError:
// error-contains: getSum
const r = await MCP.everything.get_sum({ a: 1, b: 2 });
return r.content[0].text;
