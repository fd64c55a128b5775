// status: failed
}); return globalThis; (async () => {
