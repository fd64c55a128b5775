// status: failed
// code: output_limit_exceeded
// error: code mode output limit exceeded: a text item of 25234 bytes
// console.table draws at most 1000 rows of 20,000 (about 25 KB, not 500),
// which the corpus's 8 KiB output limit then refuses as one item.
const rows = Array.from({ length: 20000 }, (_, i) => ({ i }));
console.table(rows);
return "drawn";
