// A cell that returns big strings from the engine's own memory: the source
// text of a 6 MB function, by Function#toString, several times over.
const f = new Function("let y = 0;\n" + "y += 1;\n".repeat(6 * 1024 * 1024 / 8) + "return y;");
let n = 0;
for (let i = 0; i < 8; i++) n += f.toString().length;
return n;
