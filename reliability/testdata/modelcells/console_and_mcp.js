// status: completed
// value: null
// output-contains: Echo: deploy started
// output-contains: The sum of 40 and 2 is 42.
const echo = await MCP.everything.echo({ message: "deploy started" });
console.log(echo.content[0].text);
const sum = await MCP.everything.getSum({ a: 40, b: 2 });
console.log(sum.content[0].text);
