// status: failed
// code: invalid_input
export default 1;
