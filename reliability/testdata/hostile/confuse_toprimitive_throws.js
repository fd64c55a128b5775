// status: completed
text({ [Symbol.toPrimitive]() { throw new Error("p"); }, toJSON() { throw new Error("j"); } });
return 1;
