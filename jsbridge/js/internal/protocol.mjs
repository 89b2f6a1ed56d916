// The numbers the two sides agree on, named once. Go's names are given for
// each. The read output's op codes are in wireops.mjs, generated from
// jsbridge/wire.

// What an exported entry (jsbridge/exports.go) returns besides a length.

/** Done: the change took effect (Go: done). */
export const EXPORT_DONE = 0;
/** Declined: JavaScript makes the call through its js.FuncOf entry (Go: declined). */
export const EXPORT_DECLINED = -1;
/** Failed: the call ran; exchangeError throws its error (Go: failed). */
export const EXPORT_FAILED = -2;

// Body kinds: how a request body crosses, as the pair (kind, payload)
// (jsbridge/convert.go: bodyNone, bodyJSON, bodyRaw).

/** No body. */
export const BODY_NONE = 0;
/** A JSON body, as JSON text. */
export const BODY_JSON = 1;
/** Any other body (FormData, Blob, ...), as the JavaScript value itself. */
export const BODY_RAW = 2;

// Schema descriptors (jsbridge/schema.go, jsbridge/endpoint.go).

/** An endpoint option schema that removes the schema (a handle Go reads as none). */
export const SCHEMA_NONE = -1;
/** In an object descriptor, [name, MEMBER_DEFAULT, value] is a default, not a schema. */
export const MEMBER_DEFAULT = 0;

// How JavaScript reports a wait's outcome to Go (datafetchWake;
// jsbridge/wakekinds.go, checked equal by wakekinds_test.go).

/** A fetch answered with a Response, or a promise resolved (Go: wakeOK). */
export const WAKE_OK = 0;
/** The fetch or the promise failed; Go takes what was thrown (Go: wakeThrown). */
export const WAKE_THROWN = 1;
/** fetch resolved to something that is not a Response (Go: wakeNotResponse). */
export const WAKE_NOT_RESPONSE = 2;

// The asynchronous entries datafetchStart starts (jsbridge/start.go).

/** ctrl.fetch (Go: startFetch). */
export const START_FETCH = 0;
/** ctrl.useSuspense (Go: startSuspense). */
export const START_SUSPENSE = 1;
/** ctrl.fetchIfStale (Go: startFetchIfStale). */
export const START_FETCH_IF_STALE = 2;

// What ctrlSyncApply answers (jsbridge/tabsync.go).

/** The sync message was applied (Go: syncApplied). */
export const SYNC_APPLIED = 0;
/** The sync message is of another version and was ignored (Go: syncUnknownVersion). */
export const SYNC_UNKNOWN_VERSION = 1;
