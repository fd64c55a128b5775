// Package suggest finds the name a person probably meant, for the "did you
// mean" of configuration warnings.
package suggest

import (
	"iter"
	"strings"
)

// Closest is the known key an unknown one was probably meant to be: the
// same but for case, the known key it begins (timeout for timeoutMs), or
// one a typo or two away; empty when none is near. Ties go to the first in
// byte order, so the answer does not depend on the order of known.
func Closest(key string, known iter.Seq[string]) string {
	best, bestDist := "", 0
	for k := range known {
		lk, lkey := strings.ToLower(k), strings.ToLower(key)
		dist := editDistance(lk, lkey)
		switch {
		case lk == lkey:
			dist = 0
		case len(lkey) >= 4 && strings.HasPrefix(lk, lkey):
			dist = 1
		case dist > max(1, len(lkey)/3):
			continue
		}
		if best == "" || dist < bestDist || dist == bestDist && k < best {
			best, bestDist = k, dist
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes: keys
// are ASCII.
func editDistance(a, b string) int {
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			prev, row[j] = row[j], min(row[j]+1, row[j-1]+1, prev+cost)
		}
	}
	return row[len(b)]
}
