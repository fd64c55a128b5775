// status: failed
// code: internal_error
// error: TypeError
"use strict";
ALL_TOOLS.push({ id: "openclaw:tracker:admin_reset" });
return 1;
