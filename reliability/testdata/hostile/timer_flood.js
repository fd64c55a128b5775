// status: failed
// code: internal_error
// error: Error: too many pending timers (256)
// mcp: yes
for (;;) setTimeout(() => {}, 1e9);
