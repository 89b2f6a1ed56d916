// Package jsbridge is the JavaScript API of datafetch (docs/js-api.md)
// over package core: it registers one global object of Go functions that
// datafetch.mjs, the ES module JavaScript imports, wraps in the public
// classes (Entity, RestEndpoint, Controller, ...).
//
// The boundary is crossed in bulk. Params, bodies and the results of
// JavaScript callbacks come to Go as one JSON string each; results go to
// JavaScript as one string per read, which datafetch.mjs parses with
// JSON.parse and then patches: objects JavaScript already holds are reused
// by id (so unchanged data keeps its identity, ===) and Date fields become
// Dates (see package encode). Schemas, endpoints and controllers live in Go and
// JavaScript holds them by numeric handle (handles.go).
//
// Every entry point recovers panics: a synchronous one returns the error as
// a JavaScript Error, which datafetch.mjs throws; an asynchronous one gets
// resolve and reject functions, runs in a goroutine (never blocking the
// js.Func callback, which would stop the event loop) and rejects. After any
// error the instance keeps working.
package jsbridge
