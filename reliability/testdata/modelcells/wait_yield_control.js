// status: waiting
// output-contains: export started
// wait-status: completed
// wait-value: {"rows":12,"echo":"export"}
const pending = tools.slow_echo({ ms: 300, value: "export" });
text("export started; handing back while it runs");
await yield_control("export running");
const [rows, { value }] = await Promise.all([tools.shipping_list(), pending]);
return { rows: rows.length, echo: value };
