// status: failed
// code: timeout
// A 100,000-code-point host label: punycode is quadratic in it, and the
// deadline still stops it (web.js is preemptible guest code).
let s = "";
for (let i = 0; i < 100000; i++) s += String.fromCharCode(0x4e00 + (i % 20000));
return new URL("http://" + s + "/").host.length;
