// status: failed
// code: internal_error
// error: RangeError: Invalid time zone specified: Mars/Olympus_Mons
// A zone the database does not have is an error, never UTC in disguise.
return new Date(0).toLocaleString("en-US", { timeZone: "Mars/Olympus_Mons" });
