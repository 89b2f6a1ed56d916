// Package badinput holds the bad-input matrix of datafetch's Go API: a
// table of malformed responses, wrong shapes, bad params, failing callbacks
// and network faults, each run natively through rest and controller against
// the test REST API (test/fixture/testapi) on an httptest server. For every case the
// error names the endpoint and the URL or schema key and says what was
// wrong, the store is exactly as it was (but for the failed key's error),
// no optimistic update is left behind, and the next normal request works.
//
// test/node/badinput.test.mjs runs the same cases, by the same names,
// through the JavaScript API.
package badinput
