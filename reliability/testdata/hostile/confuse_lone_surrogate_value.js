// status: completed
// value: ["\ufffd", "a\ufffdb", {"\ufffd": 1}]
// bug: a returned lone surrogate stays a \udXXX escape in the value JSON, which strict JSON parsers reject; tool inputs and text() get U+FFFD
// mcp: yes
return ["\ud800", "a\udc00b", { "\udbff": 1 }];
