// status: completed
// value: {"city":"Chicago","keys":["conditions","humidity","temperature"]}
const cities = ["Chicago"];
const [weather] = await Promise.all(cities.map(location => MCP.everything["get-structured-content"]({ location })));
return { city: cities[0], keys: Object.keys(weather.structuredContent).sort() };
