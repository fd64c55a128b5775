// status: completed
// value: null
// A trailing "expression" that closes the wrapper is not rewritten into a
// return: the cell's value is the last function's, undefined.
1 }) ; (() => {
