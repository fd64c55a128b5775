// status: completed
// value: "done"
setInterval(() => { for (;;) {} }, 0);
setInterval(() => text("tick"), 1);
return "done";
