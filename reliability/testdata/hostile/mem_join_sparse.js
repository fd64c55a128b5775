// status: failed
// code: internal_error
// error: RangeError: Array.prototype.join on a length of 2147483648 exceeds the sandbox's limit
return new Array(2 ** 31).join("ab").length;
