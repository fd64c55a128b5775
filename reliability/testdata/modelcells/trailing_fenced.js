// status: completed
// value: {"echo":"Echo: ping","retries":3}
```js
const echo = await MCP.everything.echo({ message: "ping" });
const cfg = await MCP.filesystem.read_text_file({ path: "config.json" });
({ echo: echo.content[0].text, retries: JSON.parse(cfg.content[0].text).retries })
```
