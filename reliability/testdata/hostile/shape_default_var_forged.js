// status: completed
// value: 7
var __cm_default = () => { while (true) {} };
export default 7;
