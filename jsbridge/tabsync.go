//go:build js && wasm

package jsbridge

import (
	"errors"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Sync between tabs (docs/js-api.md, "Sync between tabs"): the entries
// df.syncTabs (internal/tabsync.mjs) uses. The messages are the
// controller's (core/controller/sync.go); they cross as JSON text both
// ways, and JavaScript posts and receives that text on a BroadcastChannel.

// ctrlSyncStart(ctrl, post) makes post, a JavaScript function, a sink of
// the controller's sync messages: it is called with each message's JSON
// text, on whichever goroutine made the change, and must not throw (a throw
// is reported on the console). It returns the handle ctrlSyncStop takes.
func ctrlSyncStart(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	post := arg(args, 1)
	if post.Type() != safejs.TypeFunction {
		return nil, errors.New("syncTabs: post must be a function")
	}
	stop := c.c.OnSync(func(msg value.Value) {
		defer recoverHook("syncTabs")
		if _, err := invoke(post, msg.JSON()); err != nil {
			reportError(err)
		}
	})
	// A change now calls JavaScript, as with a subscription.
	return c.hook(stop), nil
}

// ctrlSyncStop(handle) removes a sink ctrlSyncStart added; a second call
// does nothing.
func ctrlSyncStop(args []safejs.Value) (any, error) {
	h := arg(args, 0)
	stop, err := lookup[func()](h, "a sync sink")
	if err != nil {
		return nil, nil // already stopped
	}
	stop()
	id, _ := h.Int()
	table.release(id)
	return nil, nil
}

// ctrlSyncApply(ctrl, text) applies a sync message, JSON text, from another
// controller (controller.ApplySync). It returns syncApplied, or
// syncUnknownVersion for a message of another version, which changes
// nothing; a malformed message is an error saying what is wrong, and
// changes nothing either.
func ctrlSyncApply(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	msg, err := jsonArg(arg(args, 1), "sync message")
	if err != nil {
		return nil, err
	}
	if err := c.c.ApplySync(msg); err != nil {
		if errors.Is(err, controller.ErrSyncVersion) {
			return syncUnknownVersion, nil
		}
		return nil, err
	}
	return syncApplied, nil
}
