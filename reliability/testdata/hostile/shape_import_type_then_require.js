// language: typescript
// status: failed
// code: invalid_input
// error: code mode module access is disabled.
import type { Stats } from "fs";
const fs = require("fs");
const s: Stats = fs.statSync("/etc/passwd");
