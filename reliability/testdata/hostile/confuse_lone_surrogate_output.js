// status: completed
// value: 1
// output: [{"type":"text","text":"�"},{"type":"json","value":"�"}]
text("\ud83d");
json("\ude00");
return 1;
