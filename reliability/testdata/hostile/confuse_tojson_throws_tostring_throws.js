// status: completed
return { toJSON() { throw 1; }, toString() { throw 2; } };
