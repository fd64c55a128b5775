// status: completed
// value: {"s": "�x"}
return await tools.callValue("echo", { s: "\udc00x" });
