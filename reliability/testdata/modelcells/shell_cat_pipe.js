// status: failed
// code: invalid_input
// error: code-mode exec runs JavaScript or TypeScript, not shell commands.
cat logs/app.log | grep ERROR | wc -l
