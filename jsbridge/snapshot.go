//go:build js && wasm

package jsbridge

import (
	"errors"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Snapshots (docs/js-api.md, "Snapshots, hydration and persistence"): the
// entries ctrl.hydrate, the initialState option and df.persist use. The
// snapshot crosses as JSON text both ways.

// ctrlHydrate(ctrl, snapshotJSON) merges a snapshot into the store
// (controller.Hydrate).
func ctrlHydrate(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	return nil, hydrate(c.c, arg(args, 1))
}

// hydrate parses snapshot, JSON text, and merges it into c.
func hydrate(c *controller.Controller, snapshot safejs.Value) error {
	v, err := jsonArg(snapshot, "hydrate: snapshot")
	if err != nil {
		return err
	}
	if v.IsUndefined() {
		return errors.New("hydrate: the snapshot is empty")
	}
	return c.Hydrate(v)
}

// ctrlChangeCount(ctrl) returns the controller's change counter (see
// ctrlChanges), for callers without the module's memory.
func ctrlChangeCount(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	return int(*c.changes), nil
}

// snapshotVersion() returns the snapshot format version this build writes
// and reads.
func snapshotVersion([]safejs.Value) (any, error) {
	return controller.SnapshotVersion, nil
}
