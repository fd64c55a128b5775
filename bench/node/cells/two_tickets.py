# two_tickets.js in Python, for Monty, which pauses at each external call
# (one at a time: it has no promises to hold two in flight). request stands
# for hostRequest, print for hostEmit; the snapshot is taken at the first
# request and the restore answers both.
print("before")
x = request("first", "{}")
y = request("second", "{}")
print("after")
x["n"] * 10 + y["n"]
