package controller

import (
	"errors"

	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/internal/fmtlite"
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

// make makes ch in the store, c.mu held. A change that runs no caller code
// is made at once, as before; one that does is made with c.mu released
// around its hooks (store.Make), again while the store changes under
// them, at most maxHookAttempts times. A reset of the store meanwhile ends
// the attempts with ErrReset: what was to be changed is gone. An error
// names key (the result's; "" for none) and what was being done.
func (c *Controller) make(ch *store.Change, key, what string) error {
	gen := c.gen
	for attempt := 1; ; attempt++ {
		err := c.st.Make(ch, &c.mu)
		switch {
		case err != store.ErrChanged:
			return err
		case c.gen != gen:
			err = ErrReset
		case attempt == maxHookAttempts:
			err = ErrHooksKeepChanging
		default:
			continue
		}
		return fmtlite.Errorf("%s%s: %w", key, what, err)
	}
}

// apply stores a server response (c.mu held); key and what name it in an
// error, as for make.
func (c *Controller) apply(w *store.Write, key, what string) error {
	_ = c.st.Adopt(w.Key, w.Schema) // a result w replaces anyway
	return c.make(&store.Change{Write: w}, key, what)
}

// removePending drops an optimistic write whose request settled (c.mu
// held). It cannot fail: when the hooks of the writes still pending keep
// changing the store, every optimistic write is dropped (the base is shown
// as servers sent it, which needs no hook), and their requests still
// store their responses when they settle.
func (c *Controller) removePending(p *store.Pending) {
	if c.make(&store.Change{Remove: p}, "", "") != nil {
		c.st.DropPending()
	}
}
