// status: completed
// value: [null, true, "undefined", 1]
Object.prototype.callValue = () => "hijacked";
Object.prototype.search = () => "hijacked";
const r = [Object.getPrototypeOf(tools), Object.isFrozen(tools), typeof tools.constructor];
r.push(await tools.count());
return r;
