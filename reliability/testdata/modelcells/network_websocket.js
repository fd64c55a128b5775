// status: failed
// code: internal_error
// error-contains: no network
// error-contains: MCP.
const ws = new WebSocket("wss://stream.example.com/events");
const first = await new Promise((resolve, reject) => {
  ws.onmessage = (ev) => resolve(ev.data);
  ws.onerror = reject;
});
return first;
