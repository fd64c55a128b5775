// status: completed
// value: {"isDate":true,"iso":true,"afterBuild":true}
const now = new Date();
return { isDate: now instanceof Date && !isNaN(now), iso: /^\d{4}-\d{2}-\d{2}T/.test(now.toISOString()), afterBuild: Date.now() > Date.UTC(2024, 0, 1) };
