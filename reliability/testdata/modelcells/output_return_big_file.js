// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
// error-contains: bytes
// error-contains: 2026-11-30T08:00:00Z
const log = await MCP.filesystem.read_text_file({ path: "logs/app.log" });
return log;
