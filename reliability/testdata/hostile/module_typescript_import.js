// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// language: typescript
import { readFileSync } from "fs";
const x: string = readFileSync("/etc/passwd", "utf8");
return x;
