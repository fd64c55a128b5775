// The suspended cell of the snapshot and restore metrics: two host requests
// in flight under Promise.all. A function body: both sides wrap it in an
// async function and provide hostRequest and hostEmit.
const p1 = hostRequest("first", "{}");
const p2 = hostRequest("second", "{}");
hostEmit("text", "before");
const [x, y] = await Promise.all([p1, p2]);
hostEmit("text", "after");
return x.n * 10 + y.n;
