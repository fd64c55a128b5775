// status: completed
// value: {"auth":"Bearer t","accept":"application/json, text/plain","keys":["accept","authorization","x-trace"]}
const headers = new Headers({ Authorization: "Bearer t", "X-Trace": "1" });
headers.append("Accept", "application/json");
headers.append("accept", "text/plain");
return { auth: headers.get("authorization"), accept: headers.get("Accept"), keys: [...headers.keys()] };
