package jsbridge

// The numbers, other than read ops (package wire), that both sides of the
// bridge agree on. Go uses the constants; protocolConsts names them for
// JavaScript, which imports them from internal/protocol.mjs, generated
// from it with the call table (calls.go) and documented in CALLS.md.

// What an exported entry (exports.go) returns besides a length. declined
// is for JavaScript to make the call through its js.FuncOf entry instead,
// for what an export cannot do (CALLS.md lists when); done is a change
// that took effect; failed is a call that ran and failed, its error kept
// in exchange.err for JavaScript to take through exchangeError (making the
// call again would run the caller's hooks twice); unheard is a wait's
// outcome that nobody waits for any more (datafetchWake).
const (
	declined = -1
	done     = 0
	failed   = -2
	unheard  = -3
)

// Body kinds: how a request body crosses, as the pair (kind, payload).
// JSON bodies (plain objects, arrays, numbers, booleans, strings) cross as
// JSON text and become a value.Value, which package rest sends as JSON (a
// string as it is); anything else (FormData, Blob, ArrayBuffer, ...) stays
// a JavaScript value that only the transport looks at.
const (
	bodyNone = 0
	bodyJSON = 1
	bodyRaw  = 2
)

// Schema descriptors: Go reads these by shape. Any negative handle is no
// schema (schemaFromHandle), and an object member of three elements is a
// default (buildObject); JavaScript writes these.
const (
	schemaNone    = -1
	memberDefault = 0
)

// wakeKind is how JavaScript reports a wait's outcome (wake.go).
const (
	// wakeOK: a fetch answered with a Response (its status, headers and
	// body are in the reserved room) or a promise resolved; the value is
	// taken with lib.take.
	wakeOK = 0
	// wakeThrown: the fetch or the promise failed; the thrown value is
	// taken with lib.take.
	wakeThrown = 1
	// wakeNotResponse: fetch resolved to something that is not a
	// Response; the meta text says what it was ("null", "a string", ...).
	wakeNotResponse = 2
	// wakeText: a promise resolved to JSON text (a hook's result, as its
	// adapter wrote it), which JavaScript wrote as UTF-8 into the reserved
	// room (bodyLen bytes): nothing to take (awaitJSON).
	wakeText = 3
	// wakeBadRoom is no report: lengths beyond the reserved room (a fault
	// of this side of the library).
	wakeBadRoom = -1
)

// startOp names the entry datafetchStart starts (start.go).
const (
	startFetch        = 0
	startSuspense     = 1
	startFetchIfStale = 2
	// startPrefetch is fetchIfStale for a reader that reads the result
	// itself (a React hook's subscription): its call completes with
	// undefined, so the result is not encoded for JavaScript a second time.
	startPrefetch = 3
)

// The answers of ctrlSyncApply (tabsync.go).
const (
	syncApplied = 0
	// syncUnknownVersion: the message is of another version (a newer
	// build's) and was ignored.
	syncUnknownVersion = 1
)

// protocolConst is a number JavaScript knows by name: a group starts where
// group is set, with its heading.
type protocolConst struct {
	group string
	name  string
	value int
	doc   string
}

// protocolConsts are the numbers of internal/protocol.mjs.
var protocolConsts = []protocolConst{
	{"What an exported entry (exports.go) returns besides a length.", "EXPORT_DONE", done, "Done: the change took effect."},
	{"", "EXPORT_DECLINED", declined, "Declined: JavaScript makes the call through its js.FuncOf entry."},
	{"", "EXPORT_FAILED", failed, "Failed: the call ran; exchangeError throws its error."},
	{"", "EXPORT_UNHEARD", unheard, "Unheard: nobody waits for the outcome datafetchWake was given any more."},

	{"Body kinds: how a request body crosses, as the pair (kind, payload) (convert.go).", "BODY_NONE", bodyNone, "No body."},
	{"", "BODY_JSON", bodyJSON, "A JSON body, as JSON text."},
	{"", "BODY_RAW", bodyRaw, "Any other body (FormData, Blob, ...), as the JavaScript value itself."},

	{"Schema descriptors (schema.go, endpoint.go).", "SCHEMA_NONE", schemaNone, "An endpoint option schema that removes the schema (a handle Go reads as none)."},
	{"", "MEMBER_DEFAULT", memberDefault, "In an object descriptor, [name, MEMBER_DEFAULT, value] is a default, not a schema."},

	{"How JavaScript reports a wait's outcome to Go (datafetchWake; wake.go).", "WAKE_OK", wakeOK, "A fetch answered with a Response, or a promise resolved."},
	{"", "WAKE_THROWN", wakeThrown, "The fetch or the promise failed; Go takes what was thrown."},
	{"", "WAKE_NOT_RESPONSE", wakeNotResponse, "fetch resolved to something that is not a Response."},
	{"", "WAKE_TEXT", wakeText, "A promise resolved to JSON text, written as UTF-8 into the reserved room; nothing to take."},

	{"The asynchronous entries datafetchStart starts (start.go).", "START_FETCH", startFetch, "ctrl.fetch (ctrlFetch)."},
	{"", "START_SUSPENSE", startSuspense, "useSuspense (ctrlSuspense)."},
	{"", "START_FETCH_IF_STALE", startFetchIfStale, "ctrl.fetchIfStale (ctrlFetchIfStale)."},
	{"", "START_PREFETCH", startPrefetch, "fetchIfStale whose call completes with undefined: the result is read elsewhere (the React hooks)."},

	{"What ctrlSyncApply answers (tabsync.go).", "SYNC_APPLIED", syncApplied, "The sync message was applied."},
	{"", "SYNC_UNKNOWN_VERSION", syncUnknownVersion, "The sync message is of another version and was ignored."},
}
