// A cell that runs into its heap limit by compiling: eval of 10 MB of source.
const src = "[" + "1,".repeat(5 * 1024 * 1024) + "1]";
return eval(src).length;
