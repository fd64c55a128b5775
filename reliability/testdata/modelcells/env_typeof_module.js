// status: completed
// value: "cell"
const kind = typeof module !== "undefined" && module.exports ? "commonjs" : typeof window !== "undefined" ? "browser" : "cell";
return kind;
