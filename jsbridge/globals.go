//go:build js && wasm

package jsbridge

import "github.com/hack-pad/safejs"

// The JavaScript globals the bridge calls, looked up once. They are the
// built-ins of every JavaScript environment datafetch runs in (browsers,
// workers, Node.js >= 20); fetch is looked up per request instead, so a
// page may replace it after loading.
var (
	global            = safejs.Global()
	objectConstructor = mustGet(global, "Object")
	objectAssign      = mustGet(objectConstructor, "assign")
	errorConstructor  = mustGet(global, "Error")
	globalString      = mustGet(global, "String")
	arrayFrom         = mustGet(mustGet(global, "Array"), "from")
	arrayOf           = mustGet(mustGet(global, "Array"), "of")
	uint8Array        = mustGet(global, "Uint8Array")
	jsonObject        = mustGet(global, "JSON")
	abortController   = mustGet(global, "AbortController")
	console           = mustGet(global, "console")
	setTimeout        = mustGet(global, "setTimeout")
	// Response and structuredClone are looked up once too; either may be
	// missing (an old environment, a fetch polyfill): see detachBody.
	responseConstructor = mustGet(global, "Response")
	structuredClone     = mustGet(global, "structuredClone")
)

func mustGet(v safejs.Value, name string) safejs.Value {
	x, err := v.Get(name)
	if err != nil {
		panic("jsbridge: " + name + ": " + err.Error())
	}
	return x
}

func newObject() (safejs.Value, error) {
	return objectConstructor.New()
}
