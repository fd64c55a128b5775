// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
try { text("x".repeat(1e6)); } catch (e) {}
return 1;
