// status: completed
// value: 1
for (let i = 0; i < 1000; i++) yield_control("r".repeat(1000));
return 1;
