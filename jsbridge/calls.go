package jsbridge

// The call surface of the bridge, defined once: the entries Register puts
// on globalThis.__datafetchGo, by name, with their arguments and what they
// do. JavaScript calls them through the stubs of internal/calls.mjs and
// Go binds them to their functions in register.go (entries), both keyed by
// the callID constants of calls_gen.go; CALLS.md writes the table down.
// All three are generated from callSpecs (go generate ./jsbridge, which
// runs TestGeneratedCalls -update) and checked current by that test.
//
// Adding an entry: add its callSpec here, run go generate ./jsbridge, bind
// its function in register.go's entries, and call it from JavaScript as
// calls.name(...) (a bridge from makeBridge holds calls).

//go:generate go test -run ^TestGeneratedCalls$ -update .

// GlobalName is the property of globalThis that Register sets to the
// bridge's function table, for datafetch.mjs to take.
const GlobalName = "__datafetchGo"

// callKind is how JavaScript calls an entry and hears of its error.
type callKind uint8

const (
	// syncCall returns at once; its error comes back as an Error, which
	// the stub throws.
	syncCall callKind = iota
	// asyncCall is called with resolve and reject before its own arguments
	// and settles the Promise the stub returns, from a goroutine.
	asyncCall
	// reportCall is synchronous, but called where there is no caller to
	// throw to (a finalizer, a promise callback): the stub returns the
	// Error, for the caller to report, and checks nothing itself.
	reportCall
)

// argKind says what JavaScript passes for an argument.
type argKind uint8

const (
	// argHandle is the number of a Go object (handles.go): a controller,
	// an endpoint, a schema, a subscription, a snapshot.
	argHandle argKind = iota
	// argJSON is JSON text (undefined where the doc says it may be).
	argJSON
	// argText is a string that is not JSON.
	argText
	// argNumber is a number.
	argNumber
	// argBool is a boolean.
	argBool
	// argFunc is a JavaScript function Go calls.
	argFunc
	// argValue is a JavaScript value Go keeps or passes on as it is (an
	// object of adapters, an Error, a Response, a body).
	argValue
)

var argKindNames = [...]string{
	argHandle: "handle",
	argJSON:   "JSON text",
	argText:   "string",
	argNumber: "number",
	argBool:   "boolean",
	argFunc:   "function",
	argValue:  "value",
}

// callArg is one positional argument of an entry.
type callArg struct {
	name string
	kind argKind
}

// callSpec is one entry of the bridge. name is its property on the bridge
// object and the JavaScript stub's name; args are its own arguments, in
// order (an asyncCall's resolve and reject come first and are not
// listed); doc says in one line what it does and returns.
type callSpec struct {
	name string
	kind callKind
	args []callArg
	doc  string
}

// Arguments that recur.
var (
	ctrlA     = callArg{"ctrl", argHandle}
	endpointA = callArg{"endpoint", argHandle}
	paramsA   = callArg{"paramsJSON", argJSON}
	schemaA   = callArg{"schema", argHandle}
	argsA     = callArg{"argsJSON", argJSON}
	fnsA      = callArg{"fns", argValue}
	optsA     = callArg{"optsJSON", argJSON}
	rawA      = callArg{"raw", argValue}
	signalA   = callArg{"signal", argValue}
	bodyKindA = callArg{"bodyKind", argNumber}
	bodyA     = callArg{"body", argValue}
)

// callSpecs is the table. Its order is the callID order and the order of
// the stubs; group by concept.
var callSpecs = []callSpec{
	{"setLibrary", syncCall, []callArg{{"lib", argValue}}, "Receives the functions of internal/bridge.mjs that Go calls (decode, response, makeError, ...), once when a bridge is made."},
	{"release", reportCall, []callArg{{"handle", argHandle}}, "Forgets a handle whose JavaScript object has been collected."},
	{"settle", reportCall, []callArg{{"id", argNumber}, {"ok", argBool}, {"value", argValue}}, "Reports how a promise Go awaits (lib.watch) settled: resolved with value when ok, else rejected."},

	{"schemaNew", syncCall, []callArg{{"descJSON", argJSON}, fnsA}, "Returns the handle of a new schema made from its descriptor."},
	{"entityNew", syncCall, []callArg{{"specJSON", argJSON}, fnsA}, "Returns the handle of a new Entity ({key, pk, defaults, schema, hooks, ...}; fns holds the hooks' adapters)."},
	{"entitySchema", syncCall, []callArg{schemaA, {"fieldsJSON", argJSON}, fnsA}, "Sets the field schemas of an entity made without them, before anything has used it."},
	{"normalize", syncCall, []callArg{schemaA, {"dataJSON", argJSON}, argsA, {"storeJSON", argJSON}}, "Returns {result, entities} (plain data, undefined kept): the data normalized by the schema; a Collection adder's changes to the collections of storeJSON's tables among the entities."},
	{"denormalize", syncCall, []callArg{schemaA, {"resultJSON", argJSON}, {"entitiesJSON", argJSON}, {"argsJSON", argJSON}}, "Returns {data, expiryStatus}: the result read back from entities as normalize returns them, read with the endpoint's args (they select a Scalar's lens)."},

	{"collectionNew", syncCall, []callArg{{"specJSON", argJSON}, fnsA}, "Returns the handle of a new Collection ({of, key, argsKey, nestKey}; fns holds its adapters)."},
	{"endpointCollection", syncCall, []callArg{endpointA, {"op", argText}}, "Returns the handle of the endpoint's push, unshift, remove, move, assign or getPage endpoint, 0 when it has none."},
	{"endpointNew", syncCall, []callArg{optsA, fnsA, rawA, signalA}, "Returns the handle of a new endpoint."},
	{"endpointExtend", syncCall, []callArg{endpointA, optsA, fnsA, rawA, signalA}, "Returns the handle of the endpoint with those options replaced."},
	{"endpointPaginated", syncCall, []callArg{endpointA, {"cursor", argValue}}, "Returns the handle of the paginated endpoint (cursor: the cursor param's name, or the removeCursor adapter)."},
	{"endpointURL", syncCall, []callArg{endpointA, paramsA}, "Returns the endpoint's URL for params."},
	{"endpointKey", syncCall, []callArg{endpointA, paramsA}, "Returns the endpoint's store key for params."},
	{"resourceNew", syncCall, []callArg{optsA, fnsA, rawA, signalA}, "Makes the endpoints of a resource and returns their descriptor as JSON."},
	{"resourceExtend", syncCall, []callArg{{"resource", argHandle}, {"changes", argValue}}, "Extends or adds endpoints of a resource (changes: [name, optsJSON, fns, raw, signal] each); returns their descriptor as JSON."},
	{"legacyResource", syncCall, []callArg{{"entity", argHandle}, {"urlRoot", argText}}, "Makes the endpoints of a data-client 6.0 Resource class and returns their descriptor as JSON."},

	{"ctrlNew", syncCall, []callArg{{"optionsJSON", argJSON}, {"fetch", argFunc}, {"objs", argValue}, {"now", argFunc}, {"retryDelay", argFunc}, {"initialState", argJSON}}, "Returns the handle of a new controller (fetch, now, retryDelay and initialState may be undefined)."},
	{"ctrlGetResponse", syncCall, []callArg{ctrlA, endpointA, paramsA}, "Returns {data, expiryStatus, expiresAt} for the endpoint with params."},
	{"ctrlChanges", syncCall, []callArg{ctrlA}, "Returns the address in linear memory of the controller's shared memory (change counter, time)."},
	{"ctrlSubscribe", syncCall, []callArg{ctrlA, endpointA, paramsA, {"listener", argFunc}, {"noFetch", argBool}, {"noPoll", argBool}, {"noData", argBool}}, "Subscribes listener(data, loading, error); returns the subscription's handle for ctrlUnsubscribe. noData calls it with undefined data (a reader that reads the data itself)."},
	{"ctrlUnsubscribe", syncCall, []callArg{{"subscription", argHandle}}, "Ends a subscription, a listen or a hold."},
	{"ctrlGet", syncCall, []callArg{ctrlA, schemaA, argsA}, "Hands over the read of the schema with args (lib.hand) and returns true, or returns undefined when it finds nothing."},
	{"ctrlSet", syncCall, []callArg{ctrlA, schemaA, argsA, {"valueJSON", argJSON}}, "Stores value as the data of the schema read with args, with no request."},
	{"ctrlListen", syncCall, []callArg{ctrlA, {"listener", argFunc}}, "Calls listener() after every change to the stored data; returns a handle for ctrlUnsubscribe."},
	{"ctrlHoldQuery", syncCall, []callArg{ctrlA, schemaA, argsA}, "Keeps what a read of the schema with args reads through garbage collection; returns a handle for ctrlUnsubscribe."},
	{"ctrlInvalidate", syncCall, []callArg{ctrlA, endpointA, paramsA}, "Invalidates the endpoint's result for params."},
	{"ctrlInvalidateAll", syncCall, []callArg{ctrlA, {"testKey", argFunc}}, "Invalidates the keys testKey accepts."},
	{"ctrlExpireAll", syncCall, []callArg{ctrlA, {"testKey", argFunc}}, "Marks stale the keys testKey accepts."},
	{"ctrlResetEntireStore", syncCall, []callArg{ctrlA}, "Empties the store and both halves of the identity table."},
	{"ctrlSetResponse", syncCall, []callArg{ctrlA, endpointA, paramsA, {"dataJSON", argJSON}}, "Stores data as the endpoint's response for params."},
	{"ctrlSetError", syncCall, []callArg{ctrlA, endpointA, paramsA, {"error", argValue}}, "Keeps error as the endpoint's result for params, as if its fetch had failed."},
	{"exchangeError", syncCall, nil, "Throws the error of the exported call that answered EXPORT_FAILED."},
	{"ctrlGetState", syncCall, []callArg{ctrlA}, "Returns the store's state as JSON."},
	{"ctrlClose", syncCall, []callArg{ctrlA}, "Stops the controller's timers: polling, waits between retries."},
	{"ctrlGC", syncCall, []callArg{ctrlA}, "Runs one sweep now and returns {results, entities}, the counts it removed."},
	{"ctrlHydrate", syncCall, []callArg{ctrlA, {"snapshotJSON", argJSON}}, "Merges a snapshot into the store."},
	{"ctrlChangeCount", syncCall, []callArg{ctrlA}, "Returns the controller's change counter, for callers without the module's memory."},
	{"snapshotVersion", syncCall, nil, "Returns the snapshot format version this build writes and reads."},
	{"ctrlInspect", syncCall, []callArg{ctrlA}, "Returns what df.inspect shows of the controller now, as JSON."},
	{"snapGetResponse", syncCall, []callArg{{"snapshot", argHandle}, endpointA, paramsA}, "snap.getResponse in getOptimisticResponse: the store with earlier optimistic updates applied."},
	{"snapGet", syncCall, []callArg{{"snapshot", argHandle}, schemaA, argsA}, "snap.get in getOptimisticResponse: the schema read from the snapshot with args, undefined when nothing is found."},
	{"ctrlSyncStart", syncCall, []callArg{ctrlA, {"post", argFunc}}, "Makes post(text) a sink of the controller's sync messages; returns the handle ctrlSyncStop takes."},
	{"ctrlSyncStop", syncCall, []callArg{{"sink", argHandle}}, "Removes a sink ctrlSyncStart added; a second call does nothing."},
	{"persistStart", syncCall, []callArg{ctrlA, {"stored", argValue}, {"io", argValue}, {"throttle", argNumber}, {"maxAge", argNumber}, {"buster", argText}}, "Restores stored (text or undefined) by core/persist's rule and saves after changes through io {save, schedule, report}; returns [handle, dropped]."},
	{"persistFire", syncCall, []callArg{{"persister", argHandle}}, "The timer io.schedule armed has fired."},
	{"persistSaved", syncCall, []callArg{{"persister", argHandle}, {"error", argValue}}, "Ends the save in flight: error is undefined when it was stored."},
	{"persistFlush", syncCall, []callArg{{"persister", argHandle}, {"settle", argFunc}}, "Saves now if the cache changed, after the save in flight; then calls settle(error or undefined)."},
	{"persistStop", syncCall, []callArg{{"persister", argHandle}}, "Ends the saves; a second call does nothing."},
	{"ctrlSyncApply", syncCall, []callArg{ctrlA, {"text", argJSON}}, "Applies another controller's sync message; returns SYNC_APPLIED or SYNC_UNKNOWN_VERSION."},

	{"ctrlFetch", asyncCall, []callArg{ctrlA, endpointA, paramsA, bodyKindA, bodyA}, "ctrl.fetch: resolves with the response, or rejects with the fetch's error."},
	{"ctrlSuspense", asyncCall, []callArg{ctrlA, endpointA, paramsA}, "useSuspense's wait: resolves when the endpoint's result for params is usable."},
	{"ctrlFetchIfStale", asyncCall, []callArg{ctrlA, endpointA, paramsA}, "ctrl.fetchIfStale: fetches unless the result is fresh."},
	{"ctrlRevalidateActive", asyncCall, []callArg{ctrlA}, "Refetches what the subscriptions hold that is stale or invalid; resolves when those fetches have settled."},
	{"endpointRequestInit", asyncCall, []callArg{endpointA, bodyKindA, bodyA}, "Resolves to [descJSON, rawBody]: the request init the endpoint builds for body by default."},
	{"endpointParseResponse", asyncCall, []callArg{endpointA, {"response", argValue}}, "Resolves to the JSON text of the endpoint's default parsing of a fetch Response."},
}
