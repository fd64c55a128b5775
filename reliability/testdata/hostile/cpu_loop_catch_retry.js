// status: failed
// code: timeout
// error: code mode timeout exceeded
for (;;) { try { for (;;) {} } catch (e) {} }
