// status: failed
// code: output_limit_exceeded
try { for (;;) text("z".repeat(500)); } catch (e) {}
await tools.callValue("sleep", { ms: 3000 });
return 1;
