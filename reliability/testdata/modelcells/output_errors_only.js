// status: completed
// value: {"lines":3000,"errors":375,"first":"2026-11-30T08:00:05Z ERROR request id=req-0005 path=/api/items/5 status=500 ms=10"}
// output-contains: 375 errors in 3000 lines
const { content } = await MCP.filesystem.readTextFile({ path: "logs/app.log" });
const lines = content[0].text.trim().split("\n");
const errors = lines.filter(l => / ERROR /.test(l));
text(`${errors.length} errors in ${lines.length} lines`);
return { lines: lines.length, errors: errors.length, first: errors[0] };
