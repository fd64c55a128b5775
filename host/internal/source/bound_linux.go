package source

import "syscall"

// boundMemory makes n bytes of writable private memory (heap, stacks) a hard
// limit of this process: past it the Go runtime fails its allocation and
// the process ends, which the host reads as the cell's fault.
func boundMemory(n uint64) {
	if raceEnabled {
		return
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: n, Max: n})
}
