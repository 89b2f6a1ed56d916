//go:build js && wasm

package jsbridge

import (
	"math"
	"time"

	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// jsonArg parses an argument that datafetch.mjs made with JSON.stringify,
// or as marked JSON (value.ParseMarked: undefined members and elements
// kept). An empty string, undefined and null stand for undefined (what
// JSON.stringify(undefined) gives is no text at all).
func jsonArg(v safejs.Value, what string) (value.Value, error) {
	s, err := textArg(v, what)
	if err != nil {
		return value.Undef, err
	}
	return parseText(s, what)
}

// parseText parses JSON text (marked JSON) that JavaScript handed over, ""
// being undefined; what names it in errors.
func parseText(s, what string) (value.Value, error) {
	if s == "" {
		return value.Undef, nil
	}
	parsed, err := value.ParseMarked(s)
	if err != nil {
		return value.Undef, fmtlite.Errorf("%s: %w", what, err)
	}
	return parsed, nil
}

// textArg returns the JSON text (marked JSON) a JavaScript string holds,
// "" for undefined and null, for jsonArg or a caller that parses it later.
func textArg(v safejs.Value, what string) (string, error) {
	switch v.Type() {
	case safejs.TypeUndefined, safejs.TypeNull:
		return "", nil
	case safejs.TypeString:
		return v.String()
	}
	return "", fmtlite.Errorf("%s: expected JSON text, got %s", what, v.Type())
}

// stringArg returns a string argument.
func stringArg(v safejs.Value, what string) (string, error) {
	if v.Type() != safejs.TypeString {
		return "", fmtlite.Errorf("%s must be a string, got %s", what, v.Type())
	}
	return v.String()
}

// bodyArg returns the Go form of a (kind, payload) body: nil, a value.Value
// or a safejs.Value.
func bodyArg(kind, payload safejs.Value) (any, error) {
	k, err := kind.Int()
	if err != nil {
		return nil, fmtlite.Errorf("body kind: %w", err)
	}
	switch k {
	case bodyNone:
		return nil, nil
	case bodyJSON:
		return jsonArg(payload, "body")
	case bodyRaw:
		return payload, nil
	}
	return nil, fmtlite.Errorf("unknown body kind %d", k)
}

// bodyToJS is bodyArg's inverse, for callbacks that are given the body.
func bodyToJS(body any) (kind int, payload any) {
	switch b := body.(type) {
	case nil:
	case value.Value:
		if !b.IsUndefined() {
			return bodyJSON, b.JSON()
		}
	case safejs.Value:
		return bodyRaw, b
	case string:
		return bodyJSON, value.Str(b).JSON()
	case []byte:
		return bodyJSON, value.Str(string(b)).JSON()
	}
	return bodyNone, nil
}

// millis converts a number of milliseconds from an options object.
// datafetch.mjs sends Infinity (data-client's "never stale", which JSON
// cannot hold) as the string "Infinity"; it and any length past what a
// time.Duration holds become the longest Duration (about 292 years), which
// the controller adds to epoch milliseconds without overflow.
func millis(v value.Value, what string) (time.Duration, error) {
	if v.Kind() == value.String && v.Str() == "Infinity" {
		return time.Duration(math.MaxInt64), nil
	}
	f, ok := v.Float()
	if !ok || math.IsNaN(f) || f < 0 {
		return 0, fmtlite.Errorf("%s must be a number of milliseconds (or Infinity), got %s", what, v)
	}
	ns := f * float64(time.Millisecond)
	if ns >= math.MaxInt64 {
		return time.Duration(math.MaxInt64), nil
	}
	return time.Duration(ns), nil
}
