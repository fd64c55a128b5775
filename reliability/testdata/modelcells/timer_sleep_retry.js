// status: completed
// value: {"attempts":3,"ok":false,"last":"always_fail: this demo tool always fails"}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

let attempts = 0;
let last;
for (let i = 0; i < 3; i++) {
  attempts++;
  try {
    last = await tools.always_fail({});
    break;
  } catch (err) {
    last = err.message;
    await sleep(100 * 2 ** i); // backoff before retrying
  }
}
return { attempts, ok: false, last };
