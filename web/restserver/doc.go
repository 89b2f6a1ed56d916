// Package restserver is an in-memory REST server for tests and demos: the
// request pipeline, the test controls and the building blocks of JSON
// resources, without resources of its own. Package
// [github.com/datafetch/datafetch/web/sampleapi] builds the sample API on
// it (the data the demo shows and the tests read), and
// test/fixture/testapi adds the routes only tests use to that.
//
// A [Server] is an [http.Handler]. Routes are added with
// [Server.HandleState] (handlers that read or change data, run one at a
// time under the server's lock and answer a rendered [Reply]),
// [Server.HandleRaw] (handlers that touch no data and may wait) and
// [HandleCollection] (the list, get, create, replace, patch and delete
// routes of a [Collection]); [Server.OnReset] restores their data on
// [Server.Reset]. Every response carries permissive CORS headers, because
// browser tests load from another origin; errors are JSON
// {"error": "..."}, and a path no route matches answers 404.
//
// # Test controls
//
// Tests, and the demo's network controls, steer the server through methods
// on [Server] or, from a browser, through the equivalent routes under
// /_control/ (see [Server.ServeHTTP]): added latency and jitter, injected
// failures, requests held until released (so a test decides the order in
// which they run or answer), request counts and reset. Requests to
// /_control/ and CORS preflight requests are never counted, delayed, held
// or failed, nor are the in-process requests of [Internal].
package restserver
