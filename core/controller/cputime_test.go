//go:build !js

package controller_test

import "syscall"

// cpuTime returns the CPU time the process has used, in ns (0 when
// unknown).
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
