// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// language: typescript
import fs = require("fs");
return fs;
