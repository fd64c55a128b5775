// Suspend and resume: the cell starts a slow tool and yields. exec returns
// status "waiting" with a runId; the codemode command answers with wait,
// which lets slow_echo finish, restores the cell from its snapshot and
// delivers the result. A call still pending when exec's deadline
// (tools.codeMode.timeoutMs) passes suspends the same way, without a yield.
//
//   codemode exec examples/wait.js          # a waiting line, then a completed one
//   codemode exec --once examples/wait.js   # only the waiting line
const slow = tools.slow_echo({ ms: 300, value: "slow result" });
text("slow_echo started; yielding to the model");
await yield_control("slow_echo is running");
const { value, sleptMs } = await slow;
text(`resumed after wait; slow_echo slept ${sleptMs} ms`);
return value;
