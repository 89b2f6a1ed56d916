//go:build js && wasm

package jsbridge

import (
	"errors"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
	"github.com/datafetch/datafetch/jsbridge/interop"
)

// errorValue turns err into the JavaScript Error that reaches the caller.
// Go describes the error as JSON ({name, message} and, for a
// *rest.NetworkError, network, status, statusText and body; retries for a
// request the retry policy applied to) and makeError in
// datafetch.mjs builds the instance: a df.NetworkError for network errors,
// named by rest.ErrorName (NetworkError, AbortError or TimeoutError), with
// the JavaScript Response when one arrived; a plain Error otherwise. An
// exception thrown by the caller's own code becomes the Error's cause.
func errorValue(err error) safejs.Value {
	if ge, ok := err.(*callerError); ok {
		// setError's own error: the caller gets back what it gave.
		return ge.Value
	}
	members := []value.Member{
		value.M("name", value.Str(rest.ErrorName(err))),
		value.M("message", value.Str(err.Error())),
	}
	response, cause := safejs.Undefined(), safejs.Undefined()
	if ne, ok := errors.AsType[*rest.NetworkError](err); ok {
		members = append(members,
			value.M("network", value.True),
			value.M("status", value.Int(int64(ne.Status))),
			value.M("statusText", value.Str(ne.StatusText)))
		if !ne.Body.IsUndefined() {
			members = append(members, value.M("body", ne.Body))
		}
		if ne.Response != nil {
			if r, ok := ne.Response.Native.(safejs.Value); ok {
				response = r
			}
		}
	}
	if re, ok := errors.AsType[*controller.RetryError](err); ok {
		// How many retries the retry policy made before this error.
		members = append(members, value.M("retries", value.Int(int64(re.Retries))))
	}
	if je, ok := errors.AsType[*jsError](err); ok {
		cause = je.Value
	}
	desc := value.Obj(members...).JSON()
	if lib.makeError.Type() == safejs.TypeFunction {
		if v, e := invoke(lib.makeError, desc, response, cause); e == nil {
			return v
		}
	}
	// Before datafetch.mjs has attached (or if makeError failed), a plain
	// Error still carries the message.
	v, e := errorConstructor.New(err.Error())
	if e != nil {
		return safejs.Undefined()
	}
	return v
}

// callerError is an error a caller gave setError: Value is the JavaScript
// error itself, which reads that meet it reject with as it is.
type callerError struct {
	Value safejs.Value
	msg   string
}

func (e *callerError) Error() string { return e.msg }

// givenError makes the error a caller gave setError, described for Go as a
// thrown value is.
func givenError(v safejs.Value) *callerError {
	return &callerError{Value: v, msg: interop.Describe(v)}
}

// panicError turns a recovered panic value into an error naming the entry
// point it escaped from.
func panicError(entry string, p any) error {
	if err, ok := p.(error); ok {
		return fmtlite.Errorf("datafetch %s: internal error: %w", entry, interop.Thrown(err))
	}
	return fmtlite.Errorf("datafetch %s: internal error: %v", entry, p)
}
