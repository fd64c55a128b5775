// status: completed
// value: [true, true, "function", false]
let threw = false;
try { Object.defineProperty(namespaces, "X", { value: 1 }); } catch (e) { threw = true; }
try { namespaces.Issues.list = () => 1; } catch (e) {}
return [threw, Object.isFrozen(namespaces.Issues), typeof Issues.list, Issues.list === (() => 1)];
