// status: completed
// value: "() => \"inner, never called\""
async () => () => "inner, never called";
