// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
// mcp: yes
try { for (;;) text("x".repeat(100)); } catch (e) {}
return 1;
