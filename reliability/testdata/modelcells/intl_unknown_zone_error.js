// status: failed
// error-contains: RangeError: Invalid time zone specified: America/New_Yrok
// A misspelt zone fails loudly instead of printing UTC.
return new Date().toLocaleString("en-US", { timeZone: "America/New_Yrok" });
