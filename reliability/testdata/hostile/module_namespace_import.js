// status: failed
// code: invalid_input
// error: code mode module access is disabled.
import * as os from "os";
return os.getenv("HOME");
