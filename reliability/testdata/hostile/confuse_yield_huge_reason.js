// status: waiting
await yield_control("r".repeat(1e6));
return 1;
