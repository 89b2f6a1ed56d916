// Package jsbridge is the JavaScript API of datafetch (docs/js-api.md)
// over package core: it registers one global object of Go functions that
// datafetch.mjs, the ES module JavaScript imports, wraps in the public
// classes (Entity, RestEndpoint, Controller, ...).
//
// The boundary is crossed in bulk. Params, bodies and the results of
// JavaScript callbacks come to Go as JSON text; a read goes back as one
// output of ops in the module's memory (package wire, specified in
// wire/SPEC.md), written by package encode and decoded by datafetch.mjs
// (internal/wire.mjs), which reuses the objects JavaScript already holds
// for data that did not change (so unchanged data keeps its identity, ===)
// and turns Date fields into Dates. The entries JavaScript calls are one
// table (calls.go, written down in CALLS.md) from which go generate writes
// the JavaScript stubs. Schemas, endpoints and controllers live in Go and
// JavaScript holds them by numeric handle (handles.go).
//
// Every entry point recovers panics: a synchronous one returns the error as
// a JavaScript Error, which datafetch.mjs throws; an asynchronous one gets
// resolve and reject functions, runs in a goroutine (never blocking the
// js.Func callback, which would stop the event loop) and rejects. After any
// error the instance keeps working.
package jsbridge
