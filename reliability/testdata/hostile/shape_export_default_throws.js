// mcp: yes
// status: failed
// code: internal_error
// error: Error: boom
export default async function main() {
  throw new Error("boom");
}
