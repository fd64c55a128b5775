// status: completed
// value: []
// mcp: yes
return Object.getOwnPropertyNames(globalThis).filter((n) => /^(__|\$)/.test(n) || /host|bridge|setup/i.test(n));
