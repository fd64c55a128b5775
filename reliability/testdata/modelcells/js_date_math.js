// status: completed
// value: {"due":"2026-03-06","weekday":"Friday","daysLeft":4,"reminder":"2026-03-05T09:00:00.000Z"}
const todo = (await MCP.filesystem.readTextFile({ path: "notes/todo.md" })).content[0].text;
const due = todo.match(/Due: (\d{4}-\d{2}-\d{2})/)[1];
const dueDate = new Date(`${due}T00:00:00Z`);
const today = new Date(Date.UTC(2026, 2, 2));
const days = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const reminder = new Date(dueDate.getTime() - 24 * 3600 * 1000);
reminder.setUTCHours(9);
return {
  due,
  weekday: days[dueDate.getUTCDay()],
  daysLeft: Math.round((dueDate - today) / 86400000),
  reminder: reminder.toISOString(),
};
