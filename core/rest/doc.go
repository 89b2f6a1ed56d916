// Package rest implements endpoints for REST APIs: an Endpoint turns params
// into a URL and a key, sends the request through a Transport, and parses
// the response into a value.Value for the controller to normalize. A
// Resource groups the usual create, read, update and delete endpoints of one
// entity.
//
// The package follows data-client's RestEndpoint and resource: every option
// of the JavaScript API has a field in Options, and the WebAssembly bridge is
// a thin layer over this package. It does not import net/http, so that the
// WebAssembly binary stays small; native programs get a net/http Transport
// by importing package nethttp:
//
//	import _ "github.com/datafetch/datafetch/core/rest/nethttp"
package rest
