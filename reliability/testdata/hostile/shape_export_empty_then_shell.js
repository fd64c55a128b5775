// mcp: yes
// status: failed
// code: invalid_input
// error: code-mode exec runs JavaScript or TypeScript, not shell commands.
export {};
rm -rf / --no-preserve-root
