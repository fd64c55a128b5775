// status: completed
// value: 0
return new Array(1e5).join("").length;
