//go:build js && wasm

package jsbridge

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sweptScript reads, through the public API, a result (twice: a second
// fetch of it lists another record), records of it by ctrl.get and all of
// them by a Query, and a second result under a subscription with a
// ctrl.get of its record; then sweeps once every expiry has passed. It
// leaves the controller in globalThis.sweptCtrl and returns its handle and
// what the sweep removed.
const sweptScript = `
	const Row = df.Entity({ key: 'SweptRow', defaults: { id: undefined, name: '' } });
	const rows = new df.RestEndpoint({ urlPrefix: url, path: '/rows/:page', name: 'sweptRows', schema: [Row], dataExpiryLength: 1000 });
	let now = 1_700_000_000_000;
	const ctrl = new df.Controller({ now: () => now });
	globalThis.sweptCtrl = ctrl;
	await ctrl.setResponse(rows, { page: 1 }, [{ id: 1, name: 'a' }, { id: 2, name: 'b' }]);
	ctrl.getResponse(rows, { page: 1 });
	ctrl.get(Row, { id: 1 });
	globalThis.sweptAll = new df.schema.Query(new df.schema.All(Row), (all) => all.length);
	ctrl.get(globalThis.sweptAll);
	now += 5000;
	await ctrl.setResponse(rows, { page: 1 }, [{ id: 3, name: 'c' }]);
	ctrl.getResponse(rows, { page: 1 });
	await ctrl.setResponse(rows, { page: 2 }, [{ id: 9, name: 'held' }]);
	globalThis.sweptStop = ctrl.subscribe(rows, { page: 2 }, () => {}, { fetch: false });
	const held = ctrl.get(Row, { id: 9 });
	now += 60000;
	const removed = ctrl.gc();
	return { h: ctrl._h, removed, sameHeld: ctrl.get(Row, { id: 9 }) === held };
`

func TestSweepLeavesNoIdentityOfWhatItRemoved(t *testing.T) {
	got := run(t, sweptScript)
	t.Cleanup(func() {
		run(t, `globalThis.sweptStop(); globalThis.sweptCtrl.close(); delete globalThis.sweptCtrl; delete globalThis.sweptAll; return {}`)
	})
	assert.JSONEq(t, `{"results":1,"entities":3}`, got.Get("removed").JSON(), "page 1 and records 1, 2, 3; page 2 and record 9 are held")
	assert.True(t, got.Get("sameHeld").Boolean(), "a ctrl.get of a held record reads the same object")
	h, ok := got.Get("h").Float()
	require.True(t, ok)
	c, err := handleOf[*ctrl](int32(h), "a controller")
	require.NoError(t, err, "the controller's handle")

	c.mu.Lock()
	defer c.mu.Unlock()
	slots := c.ids.Slots()
	assert.Len(t, slots, 2, "page 2's result and the get of record 9 only: %q", slots)
	assert.Equal(t, 2, c.ids.Len(), "page 2's list and record 9")
}
