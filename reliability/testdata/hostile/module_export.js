// status: completed
// value: 1
export default 1;
