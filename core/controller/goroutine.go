package controller

import "runtime"

// goroutineID returns the running goroutine's id, from the header of its
// stack trace ("goroutine 7 [running]:"), Go's only way to tell one
// goroutine from another. A stack trace costs a microsecond or so: it is
// read once per read that runs caller code, and on a contended lock while
// such a read holds it.
func goroutineID() uint64 {
	var buf [32]byte
	n := runtime.Stack(buf[:], false)
	const prefix = "goroutine "
	var id uint64
	for _, b := range buf[min(len(prefix), n):n] {
		if b < '0' || b > '9' {
			break
		}
		id = id*10 + uint64(b-'0')
	}
	return id
}
