// status: completed
// value: {"sub":"ada","role":"admin","expires":"2026-01-01T00:00:00.000Z","header":"eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"}
// decode the token's payload to see who it belongs to
const token = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZGEiLCJyb2xlIjoiYWRtaW4iLCJleHAiOjE3NjcyMjU2MDB9.c2ln";
const [h, p] = token.split(".");
const payload = JSON.parse(atob(p));
return {
  sub: payload.sub,
  role: payload.role,
  expires: new Date(payload.exp * 1000).toISOString(),
  header: btoa(JSON.stringify({ alg: "HS256", typ: "JWT" })).replace(/=+$/, ""),
};
