// status: failed
// code: output_limit_exceeded
// console output counts against maxOutputBytes like text(): catching the
// error it throws does not let a cell print more.
let caught = 0;
for (let i = 0; i < 100; i++) {
  try { console.log({ i, pad: "x".repeat(500) }); } catch (e) { caught++; }
  try { console.error("y".repeat(2000)); } catch (e) { caught++; }
}
return caught;
