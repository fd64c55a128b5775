// status: completed
// value: {"user":"ada","scopes":["read","write"],"raw":"eyJ1c2VyIjoiYWRhIiwic2NvcGVzIjpbInJlYWQiLCJ3cml0ZSJdfQ"}
// A JWT-like payload, decoded the way Node code does it.
const payload = "eyJ1c2VyIjoiYWRhIiwic2NvcGVzIjpbInJlYWQiLCJ3cml0ZSJdfQ";
const decoded = JSON.parse(Buffer.from(payload, "base64").toString("utf8"));
const raw = Buffer.from(JSON.stringify(decoded)).toString("base64url");
return { ...decoded, raw };
