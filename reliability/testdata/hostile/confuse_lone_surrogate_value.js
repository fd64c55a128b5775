// status: completed
// value: ["\ufffd", "a\ufffdb", {"\ufffd": 1}]
// mcp: yes
return ["\ud800", "a\udc00b", { "\udbff": 1 }];
