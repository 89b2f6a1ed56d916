package jsbridge

// wakeKind is how JavaScript reports a wait's outcome (WAKE_* in
// internal/protocol.mjs).
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
	// wakeBadRoom is no report: lengths beyond the reserved room (a fault
	// of this side of the library).
	wakeBadRoom = -1
)

// startOp names the entry datafetchStart starts (START_* in
// internal/protocol.mjs; start.go).
const (
	startFetch        = 0
	startSuspense     = 1
	startFetchIfStale = 2
)
