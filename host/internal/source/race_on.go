//go:build race

package source

// raceEnabled: the race detector maps shadow memory that RLIMIT_DATA would
// count, so under it the parser's watchdog alone bounds its memory.
const raceEnabled = true
