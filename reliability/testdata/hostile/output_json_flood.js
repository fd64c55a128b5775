// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded
try { for (let i = 0; ; i++) json({ i, pad: "y".repeat(50) }); } catch (e) {}
return 1;
