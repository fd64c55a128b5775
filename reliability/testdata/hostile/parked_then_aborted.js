// status: waiting
return await tools.callValue("sleep", { ms: 60000 });
