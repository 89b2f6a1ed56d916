//go:build js && wasm

package jsbridge

import (
	"sync"
)

// Waking Go without a js.FuncOf call.
//
// A goroutine that waits for JavaScript (a fetch, a promise) registers a
// wait and blocks on its channel. JavaScript reports the outcome through the
// exports below: datafetchReserve hands out room in Go's memory for bytes (a
// body, its headers, or the JSON text a hook resolved to, which awaitJSON
// parses where it was written), datafetchWake delivers the outcome to the
// channel. Neither runs the woken goroutine: a send in an export only makes
// it runnable. JavaScript then calls the instance's resume export (through
// wasm_exec.js's Go._resume), which is what wasm_exec.js does itself when a
// timer fires: Go's handleEvent finds no pending event, parks the calling
// goroutine and runs every runnable goroutine until all wait again, then
// returns. That costs one valueGet (the empty _pendingEvent) where a
// js.FuncOf call costs an event object, its this and arguments read one
// value at a time, a finalizer on each and a result written back.
//
// What Go 1.26's js/wasm runtime does with goroutines made runnable inside
// an export (checked in runtime/lock_js.go, proc.go and
// cmd/internal/obj/wasm's export wrapper):
//
//   - An export runs on the goroutine that was current when JavaScript
//     called it (the one parked in handleAsyncEvent between events, or the
//     one blocked in a call into JavaScript when the call is nested). It
//     may switch goroutines (a channel handoff inside an export works:
//     syscall/js's TestWasmExport), but if everything waits, the scheduler
//     pauses and control returns to JavaScript in the middle of the export:
//     an export must never wait for JavaScript.
//   - A goroutine started (go f) or woken (a send) inside an export does
//     not run before the export returns, and there is no preemption in
//     js/wasm: it runs when Go next gets control, which is the next
//     js.FuncOf call, a Go timer's setTimeout firing, or a resume.
//   - Running it from inside the export (runtime.Gosched) is unsafe in
//     general: if the goroutine calls JavaScript that calls back into Go
//     through a js.FuncOf (a hook that uses the controller), the nested
//     handleEvent runs the scheduler on the nested wasm loop, which may
//     pick the parked export goroutine and return from the export on the
//     wrong wasm stack. A resume after the export has returned has no such
//     goroutine: it is the same path a js.FuncOf call takes, minus the
//     call.
//
// JavaScript wakes Go only from a promise's callbacks, which run when the
// JavaScript stack is empty: Go is then parked between events, never in
// the middle of a call into JavaScript.

// woken is a wait's outcome as JavaScript reported it.
type woken struct {
	kind   int32
	status int
	// room is what JavaScript wrote into the reserved room: body bytes
	// first (bodyLen), then the meta text (metaLen).
	body, meta []byte
	// roomLen is the length of the room reserved last: what body keeps
	// alive.
	roomLen int
}

// wait is one goroutine waiting for JavaScript.
type wait struct {
	ch   chan woken
	room []byte
}

// waits are the waits JavaScript may report to, by id.
var waits = &waitTable{m: map[int32]*wait{}}

type waitTable struct {
	mu   sync.Mutex
	next int32
	m    map[int32]*wait
}

// add registers a wait and returns its id and channel.
func (t *waitTable) add() (int32, chan woken) {
	w := &wait{ch: make(chan woken, 1)}
	t.mu.Lock()
	defer t.mu.Unlock()
	for {
		t.next++
		if t.next <= 0 {
			t.next = 1
		}
		if _, taken := t.m[t.next]; !taken {
			break
		}
	}
	t.m[t.next] = w
	return t.next, w.ch
}

// drop forgets a wait whose goroutine no longer listens (its context is
// done); a report for it is unheard.
func (t *waitTable) drop(id int32) {
	t.mu.Lock()
	delete(t.m, id)
	t.mu.Unlock()
}

func (t *waitTable) get(id int32) *wait {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[id]
}

// exportReserve returns the address of n bytes of room for the outcome of
// wait id, or 0 when nobody waits for it any more (JavaScript then drops
// the outcome). The room is the body's own memory from then on: a body is
// copied into Go once.
//
//go:wasmexport datafetchReserve
func exportReserve(id, n int32) (at uint32) {
	defer func() {
		if recover() != nil {
			at = 0
		}
	}()
	w := waits.get(id)
	if w == nil || n < 0 {
		return 0
	}
	w.room = make([]byte, max(n, 1))
	return address(w.room)
}

// exportWake delivers the outcome of wait id: kind (wake*), the HTTP
// status, and the lengths of the body and of the meta text that follows it
// in the reserved room. It returns done, or unheard when nobody waits (the
// wait's context is done): JavaScript then forgets the outcome. The waiting
// goroutine runs at JavaScript's next resume (see above).
//
//go:wasmexport datafetchWake
func exportWake(id, kind, status, bodyLen, metaLen int32) (r int32) {
	defer func() {
		if recover() != nil {
			r = unheard // never unwinds out of the export
		}
	}()
	waits.mu.Lock()
	w := waits.m[id]
	delete(waits.m, id)
	waits.mu.Unlock()
	if w == nil {
		return unheard
	}
	o := woken{kind: kind, status: int(status), roomLen: len(w.room)}
	if bodyLen < 0 || metaLen < 0 || int(bodyLen)+int(metaLen) > len(w.room) {
		o.kind = wakeBadRoom
	} else {
		o.body = w.room[:bodyLen:bodyLen]
		o.meta = w.room[bodyLen : bodyLen+metaLen]
	}
	// Buffered: never blocks, whoever listens.
	w.ch <- o
	return done
}
