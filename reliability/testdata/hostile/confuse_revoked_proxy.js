// status: failed
// code: internal_error
// error: TypeError: revoked proxy
const { proxy, revoke } = Proxy.revocable({}, {});
revoke();
return proxy;
