package controller

import "errors"

// ErrReadCallback is what a controller method panics with when code that a
// read of the same controller runs calls it: an Entity's Valid or
// DepthLimited, a schema.Lens's lens function, a union's AttributeFunc or
// Unknown, a schema.Custom's Call. The read holds the controller's lock
// while that code runs, so the call would wait for ever (in WebAssembly,
// every goroutine asleep ends the program). Such code must be a function
// of its arguments: read what it needs before.
var ErrReadCallback = errors.New("datafetch: a read's callback (an Entity's Valid or DepthLimited, a lens, a union's AttributeFunc or Unknown, a custom schema's Call) called the controller that is reading; read what it needs before the read")

// lock is c.mu.Lock, except for a call from caller code that a read holding
// c.mu runs (see ErrReadCallback): it panics with ErrReadCallback rather
// than wait for itself. Only while such a read holds c.mu is it asked
// whose the read is.
func (c *Controller) lock() {
	if r := c.reader.Load(); r != 0 && r == goroutineID() {
		panic(ErrReadCallback)
	}
	c.mu.Lock()
}

// release is c.mu.Unlock, forgetting the goroutine that read.
func (c *Controller) release() {
	c.reader.Store(0)
	c.mu.Unlock()
}

// readsCallerCode is the store's OnCallerCode: the goroutine holding c.mu
// for a read is about to run caller code. It is named once per hold of
// the lock (release forgets it); a read made without c.mu held names no
// one, as no release would forget it.
func (c *Controller) readsCallerCode() {
	if c.reader.Load() != 0 {
		return
	}
	if c.mu.TryLock() {
		c.mu.Unlock()
		return
	}
	c.reader.Store(goroutineID())
}
