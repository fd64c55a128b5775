// mcp: yes
// status: failed
// code: internal_error
// error: code mode memory limit exceeded
// The same marker was catchable, unlike every other out-of-memory error: a
// cell that catches every error kept running at the heap limit.
for (const form of ["NFKD", "NFD", "NFKC", "NFC"]) {
  for (let n = 16; n <= 28; n++) {
    try { "\u00e9".repeat(2 ** n).normalize(form); } catch (e) { return "caught " + typeof e + " " + String(e); }
  }
}
return "survived";
