// status: completed
// value-contains: no network
// value-contains: tools.search
let body;
try {
  const res = await fetch("https://status.example.com/api/v2/status.json");
  body = await res.json();
} catch (err) {
  body = { error: err.message };
}
return body;
