//go:build js

package controller_test

import "syscall/js"

// cpuTime returns the CPU time the process has used, in ns, from Node.js's
// process.cpuUsage (0 elsewhere): datafetch.wasm's Go runs on one thread,
// its collector included.
func cpuTime() int64 {
	p := js.Global().Get("process")
	if p.Type() != js.TypeObject || p.Get("cpuUsage").Type() != js.TypeFunction {
		return 0
	}
	u := p.Call("cpuUsage")
	return int64(u.Get("user").Float()+u.Get("system").Float()) * 1000
}
