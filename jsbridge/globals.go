//go:build js && wasm

package jsbridge

import (
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// The JavaScript globals the bridge calls, looked up once. They are the
// built-ins of every JavaScript environment datafetch runs in (browsers,
// workers, Node.js >= 20). Package fetch has those of a request.
var (
	global            = safejs.Global()
	objectConstructor = mustGet(global, "Object")
	errorConstructor  = mustGet(global, "Error")
	uint8Array        = mustGet(global, "Uint8Array")
	console           = mustGet(global, "console")
	setTimeout        = mustGet(global, "setTimeout")
)

func mustGet(v safejs.Value, name string) safejs.Value { return interop.Lookup(v, name) }

func newObject() (safejs.Value, error) {
	return objectConstructor.New()
}
