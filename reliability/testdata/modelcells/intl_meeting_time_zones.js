// status: completed
// value: {"New York":"Tue, Mar 10, 10:00 AM EDT","London":"Tue, Mar 10, 2:00 PM GMT","Tokyo":"Tue, Mar 10, 11:00 PM GMT+9","Berlin":"Di., 10. März, 15:00 MEZ"}
// One meeting shown in each attendee's zone (New York is already on summer time).
const meeting = new Date("2026-03-10T14:00:00Z");
const out = {};
for (const [city, timeZone] of [["New York", "America/New_York"], ["London", "Europe/London"], ["Tokyo", "Asia/Tokyo"]]) {
  out[city] = meeting.toLocaleString("en-US", { timeZone, weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });
}
out.Berlin = new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(meeting);
return out;
