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
