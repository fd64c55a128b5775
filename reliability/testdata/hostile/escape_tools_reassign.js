// status: completed
// value: [1, true]
const before = tools.callValue;
tools.callValue = () => "hijacked";
tools.count = () => "hijacked";
return [await tools.count(), tools.callValue === before];
