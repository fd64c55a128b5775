// status: completed
// value: 4
// A line that starts with ++ is a new statement: the rewrite returns the last line alone.
let a = 1, b = 2
a
++b
a + b
