// status: failed
// code: timeout
// error: code mode timeout exceeded
// mcp: yes
// QuickJS's parser is quadratic in the number of lexical declarations and
// never polls the interrupt handler.
return typeof new Function("let v" + [...Array(65000).keys()].join(";let v"));
