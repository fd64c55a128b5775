// status: completed
// value: "return return ( 1"
// "return" in a string, a template, a comment and a regex is not the cell's
// return: the trailing expression is still the value.
const s = "return (";
// return 2
const r = /return/;
`return ${1}`;
r.source + " " + s + " " + 1
