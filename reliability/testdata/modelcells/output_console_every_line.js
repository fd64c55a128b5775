// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
// error-contains: bytes
// error-contains: request id=req-
const { content } = await MCP.filesystem.readTextFile({ path: "logs/app.log" });
for (const line of content[0].text.split("\n")) {
  console.log(line);
}
