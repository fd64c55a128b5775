// status: completed
// value: true
// An object with 30,000 keys and 3,000 symbols prints 100 of them and a
// count, well within the deadline.
const o = {};
for (let i = 0; i < 30000; i++) o["k" + i] = i;
for (let i = 0; i < 3000; i++) o[Symbol(String(i))] = i;
console.log(o);
return true;
