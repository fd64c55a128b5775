// status: completed
// value: {"sum":"The sum of 2 and 3 is 5.","echo":"Echo: hi","weather":["conditions","humidity","temperature"],"files":4}
const [sum, echo, weather, dir] = await Promise.all([
  MCP.everything.getSum({ a: 2, b: 3 }),
  MCP.everything.echo({ message: "hi" }),
  MCP.everything.getStructuredContent({ location: "New York" }),
  MCP.filesystem.listDirectory({ path: "." }),
]);
return {
  sum: sum.content[0].text,
  echo: echo.content[0].text,
  weather: Object.keys(weather.structuredContent).sort(),
  files: dir.content[0].text.split("\n").length,
};
