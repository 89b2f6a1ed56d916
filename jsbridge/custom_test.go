//go:build js && wasm

package jsbridge

import "testing"

// TestCustomSchemaCallsBackIntoGo: a custom schema's methods (data-client's
// SchemaSimple) run inside Go's normalize and read, and call back into Go
// (visit, mergeEntity, unvisit) from there: on a fetch, on the reads the
// WebAssembly exports answer and on a subscription's. A throw fails the
// request, naming the schema and the place, and leaves the store as it was.
func TestCustomSchemaCallsBackIntoGo(t *testing.T) {
	check(t, run(t, schemas+`
		class Pair {
			normalize(input, parent, key, delegate) {
				if (!Array.isArray(input)) throw new TypeError('not a pair');
				const rec = delegate.visit(User, input[1], input, 1);
				delegate.mergeEntity(User, 'shadow-' + rec, { id: 'shadow-' + rec, name: input[0] });
				return [input[0], rec];
			}
			denormalize(input, delegate) {
				return { label: input[0], record: delegate.unvisit(User, input[1]), shadow: delegate.unvisit(User, 'shadow-' + input[1]) };
			}
		}
		let rows = [['a', { id: '1', name: 'Ann' }]];
		const getPairs = new df.Endpoint(async () => rows, { name: 'getPairs', schema: [new Pair()] });
		await ctrl.fetch(getPairs);
		const read = ctrl.getResponse(getPairs).data;
		const seen = [];
		const unsubscribe = ctrl.subscribe(getPairs, undefined, (s) => seen.push(s.data));
		unsubscribe();
		rows = [['b', { id: '2', name: 'Bob' }], 7];
		let err;
		try { await ctrl.fetch(getPairs); } catch (e) { err = e; }
		const state = ctrl.getState();
		return {
			reads: read[0].label === 'a' && read[0].record.name === 'Ann' && read[0].shadow.name === 'a',
			subscriptionReads: seen.length === 1 && seen[0][0].record.name === 'Ann',
			stored: state.entities.User['1'].name === 'Ann' && state.entities.User['shadow-1'].name === 'a',
			failed: err instanceof Error && err.message.includes('custom(Pair)') && err.message.includes('$[1]') && err.message.includes('not a pair'),
			keptState: state.entities.User['2'] === undefined && ctrl.getResponse(getPairs).data[0].label === 'a',
		};
	`))
}
