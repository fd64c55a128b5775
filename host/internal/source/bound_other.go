//go:build !linux

package source

// boundMemory has no hard form here (RLIMIT_DATA does not cover mmap on
// other systems); the parser's watchdog ends it past the bound instead.
func boundMemory(uint64) {}
