// status: completed
// value: "thenable"
export default { then(resolve) { resolve("thenable"); } };
