// status: completed
// value: {"fired":false,"later":true}
let fired = false, later = false;
const t = setTimeout(() => { fired = true; }, 50);
clearTimeout(t);
setTimeout(() => { later = true; }, 100);
await new Promise(r => setTimeout(r, 400));
return { fired, later };
