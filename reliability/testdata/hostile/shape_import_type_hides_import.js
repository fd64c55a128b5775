// status: failed
// code: invalid_input
// error: code mode module access is disabled.
import type { A } from "a"; import fs from "fs";
const x: A = fs;
