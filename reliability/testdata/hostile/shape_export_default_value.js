// status: completed
// value: [1,2,3]
export default [1, 2, 3];
