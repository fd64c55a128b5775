// status: failed
// code: invalid_input
// error: code mode module access is disabled.
// language: typescript
// In TypeScript require<T>(...) is a call with a type argument; the check
// of the transform's output sees it.
return typeof require<any>("fs");
