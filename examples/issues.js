// A plugin namespace behind an approval: Issues is the tracker plugin's API
// (plugins/tracker), and Issues.update needs a person's approval. The cell
// asks for it and yields; exec returns "waiting" while the approval is
// pending. The codemode command's demo approver grants it after 300 ms (it
// says so on stderr), the wait that follows lets the update run, and the
// cell completes.
//
//   codemode exec examples/issues.js          # a waiting line, then a completed one
//   codemode exec --once examples/issues.js   # only the waiting line; nothing changes
const open = await Issues.list({ state: "open" });
const target = open.find((i) => i.title.includes("SHP-107"));
if (!target) throw new Error("no open issue about SHP-107");
const update = Issues.update(target.id, { state: "closed" });
text(`${open.length} open issues; asked to close ${target.id}`);
await yield_control(`waiting for approval to close ${target.id}`);
const closed = await update;
const left = await Issues.list({ state: "open" });
text(`approved: ${closed.id} is ${closed.state}; ${left.length} open issues left`);
return { closed: closed.id, open: left.map((i) => i.id) };
