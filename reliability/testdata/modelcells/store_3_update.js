// session: followup
// status: completed
// value: {"left":7,"done":["SHP-102"]}
const unpaid = (await load("unpaid")) ?? [];
const [next, ...rest] = unpaid;
const done = (await load("done")) ?? [];
done.push(next);
await store("unpaid", rest);
await store("done", done);
return { left: (await load("unpaid")).length, done: await load("done") };
