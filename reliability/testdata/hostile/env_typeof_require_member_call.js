// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// A dotted path under typeof that is then called is a use, across a line break too.
return typeof require
  .call(null, "fs");
