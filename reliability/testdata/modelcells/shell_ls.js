// status: failed
// code: invalid_input
// error: code-mode exec runs JavaScript or TypeScript, not shell commands.
ls -la notes/
