// status: failed
// code: invalid_input
// error: code-mode exec runs JavaScript or TypeScript, not shell commands.
npm test -- --watch=false
