// status: completed
// value: {"x":1}
// output: [{"type":"text","text":"late"}]
return { get x() { text("late"); return 1; } };
