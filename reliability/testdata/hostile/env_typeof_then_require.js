// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// A typeof's operand ends at the comma: the require after it is a use.
return [typeof require, require("child_process")];
