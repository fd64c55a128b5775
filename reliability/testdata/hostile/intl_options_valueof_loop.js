// status: failed
// code: timeout
// error: code mode timeout exceeded
// An option whose conversion never returns is stopped by the deadline.
new Intl.NumberFormat("en-US", { maximumFractionDigits: { valueOf() { for (;;) {} } } });
