// status: failed
// code: timeout
setTimeout(() => { for (;;) {} }, 0);
await new Promise((r) => setTimeout(r, 5));
return "unreachable";
