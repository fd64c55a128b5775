#!/usr/bin/env bash
# Fuzzes every Fuzz target in the module for $1 (a -fuzztime value) each.
# Minimization gets $2 (default 200x): Go minimizes every new interesting
# input, for 60 s by default, which stalls a short run.
# Targets are found by name, so new ones join by themselves. A crash leaves
# its input in the package's testdata/fuzz, where it stays as a regression
# case, and fails the run.
#
# Go's fuzzing coordinator can end a duration-bounded run with a bare
# "context deadline exceeded" when its deadline fires while a worker is busy
# (a race in internal/fuzz, seen on loaded machines). That failure writes no
# input. It is told apart from a finding by two facts: no new file under
# testdata/fuzz/<target>, and the target's committed corpus replaying clean.
set -eu
fuzztime=${1:?usage: fuzz.sh FUZZTIME [MINIMIZETIME]}
minimize=${2:-200x}
go=${GO:-go}

for f in $(grep -l '^func Fuzz' $(find . -name '*_test.go' -not -path './.cache/*')); do
	pkg=$(dirname "$f")
	for t in $(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$f"); do
		echo "fuzz $pkg $t"
		corpus=$pkg/testdata/fuzz/$t
		before=$(find "$corpus" -type f 2>/dev/null | wc -l)
		if out=$($go test -run '^$' -fuzz "^$t\$" -fuzztime "$fuzztime" -fuzzminimizetime "$minimize" "$pkg" 2>&1); then
			continue
		fi
		after=$(find "$corpus" -type f 2>/dev/null | wc -l)
		if [ "$after" = "$before" ] && grep -q '^    context deadline exceeded$' <<<"$out" &&
			$go test -count=1 -run "^$t\$" "$pkg" >/dev/null 2>&1; then
			echo "  coordinator deadline race (no input written, corpus replays clean): not a finding"
			continue
		fi
		echo "$out"
		exit 1
	done
done
