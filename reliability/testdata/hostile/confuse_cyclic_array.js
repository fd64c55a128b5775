// status: completed
const a = [1];
a.push(a);
return a;
