# eval_small in Python, for Monty: the same 100-iteration loop as the
# JavaScript cell, its value the last expression.
s = 0
for i in range(100):
    s += i
s
