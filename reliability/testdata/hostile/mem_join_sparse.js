// status: failed
// code: timeout
// error: code mode timeout exceeded
// bug: Array.prototype.join over a huge sparse array runs in C without interrupt checks: the cell overruns its 1 s timeout by minutes and stalls Go GC for the whole process (see TestBugNonInterruptibleBuiltin*)
return new Array(2 ** 31).join("ab").length;
