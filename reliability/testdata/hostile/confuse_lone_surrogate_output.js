// status: completed
// value: 1
// output: [{"type":"text","text":"�"},{"type":"json","value":"�"}]
// bug: a lone surrogate given to json() stays a \udXXX escape in the output item, unlike text()
text("\ud83d");
json("\ude00");
return 1;
