// status: completed
// value: null
return new Date(NaN);
