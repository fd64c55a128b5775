// status: failed
// code: timeout
// error: code mode timeout exceeded
return (1n << 1000000n).toString().length;
