package controller

import (
	"errors"
	"fmt"

	"github.com/datafetch/datafetch/core/store"
)

// ErrHooksKeepChanging is wrapped by the error of a write whose hooks (an
// Entity's merge hooks, a MergeResult merge, Update functions, its own or
// those of pending optimistic writes the store replays) found the store
// changed after they ran on every one of maxHookAttempts attempts: a hook
// that changes the controller every time it runs, or other goroutines
// writing without pause. Nothing of the write was stored.
var ErrHooksKeepChanging = errors.New("hooks kept changing the store while the write that runs them was made")

// maxHookAttempts bounds the attempts at a write whose hooks let changes
// in (see Controller): a hook that changes the store once, or a write of
// another goroutine, costs one more; one that changes it every time it runs
// fails the write instead of looping.
const maxHookAttempts = 8

// gate runs hook, caller code that the store calls while it prepares a
// change under c.mu, with c.mu released, so that the hook may call the
// controller: see store.Make, which notices any change made meanwhile.
// The lock is taken again when hook panics too, for the unlock deferred
// by the method that changes the store.
func (c *Controller) gate(hook func()) {
	c.mu.Unlock()
	defer c.mu.Lock()
	hook()
}

// make makes ch in the store, c.mu held. A change that runs no caller code
// is made at once, as before; one that does is made through c.gate, again
// while the store changes under its hooks, at most maxHookAttempts times.
// still, when set, is called (c.mu held) before each new attempt, to check
// that what the caller checked before the first one holds: its error ends
// the attempts and is returned.
func (c *Controller) make(ch *store.Change, still func() error) (store.Made, error) {
	for attempt := 1; ; attempt++ {
		m, err := c.st.Make(ch, c.gate)
		if !errors.Is(err, store.ErrChanged) {
			return m, err
		}
		if still != nil {
			if err := still(); err != nil {
				return m, err
			}
		}
		if attempt == maxHookAttempts {
			return m, fmt.Errorf("%d attempts: %w", attempt, ErrHooksKeepChanging)
		}
	}
}

// apply stores a server response (c.mu held).
func (c *Controller) apply(w *store.Write) error {
	_ = c.st.Adopt(w.Key, w.Schema) // a result w replaces anyway
	_, err := c.make(&store.Change{Write: w}, nil)
	return err
}

// removePending drops an optimistic write whose request settled (c.mu
// held). It cannot fail: when the hooks of the writes still pending keep
// changing the store, every optimistic write is dropped (the base is shown
// as servers sent it, which needs no hook), and their requests still
// store their responses when they settle.
func (c *Controller) removePending(p *store.Pending) {
	if _, err := c.make(&store.Change{Remove: p}, nil); err != nil {
		c.st.DropPending()
	}
}
