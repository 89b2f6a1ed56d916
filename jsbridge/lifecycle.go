//go:build js && wasm

package jsbridge

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/internal/fmtlite"
	"github.com/datafetch/datafetch/jsbridge/internal/safejs"
)

// Retry and revalidation (docs/js-api.md 9.2, 9.3): the retryDelay
// options, and the controller's revalidateActive and close. The events
// that call revalidateActive are listened for in internal/lifecycle.mjs.

// retryDelayHook: adapter(attempt, error) → ms, for the retryDelay option
// of an endpoint or a controller. The adapter (datafetch.mjs) checks what
// the caller's function returned; a throw stops the retries and fails the
// request with it.
func retryDelayHook(fn safejs.Value) func(int, error) (time.Duration, error) {
	return func(attempt int, err error) (time.Duration, error) {
		r, e := invoke(fn, attempt, errorValue(err))
		if e != nil {
			return 0, e
		}
		ms, e := r.Float()
		if e != nil || math.IsNaN(ms) || ms < 0 {
			return 0, fmtlite.Errorf("must return a number of milliseconds, got %s", r.Type())
		}
		ns := ms * float64(time.Millisecond)
		if ns >= math.MaxInt64 {
			return time.Duration(math.MaxInt64), nil
		}
		return time.Duration(ns), nil
	}
}

// thrownStatus gives the retry policy the status of what a custom fetch
// threw: a value with a numeric status member (a df.NetworkError, or an
// error the caller made so) is classified by it as a NetworkError is, with
// the Retry-After header of its response member when it has one. Other
// throws carry no status and are not retried.
func thrownStatus(err error) error {
	je, ok := errors.AsType[*jsError](err)
	if !ok || je.Value.Type() != safejs.TypeObject {
		return err
	}
	st, e := je.Value.Get("status")
	if e != nil || st.Type() != safejs.TypeNumber {
		return err
	}
	n, e := st.Int()
	if e != nil {
		return err
	}
	se := &statusError{err: err, status: n}
	if resp, e := je.Value.Get("response"); e == nil && resp.Type() == safejs.TypeObject {
		if h, e := resp.Get("headers"); e == nil && h.Type() == safejs.TypeObject {
			if ra, e := callMethod(h, "get", "Retry-After"); e == nil && ra.Type() == safejs.TypeString {
				se.retryAfter, _ = ra.String()
			}
		}
	}
	return se
}

// statusError is a thrown error with the status thrownStatus found.
type statusError struct {
	err        error
	status     int
	retryAfter string
}

var _ endpoint.StatusError = (*statusError)(nil)

func (e *statusError) Error() string      { return e.err.Error() }
func (e *statusError) Unwrap() error      { return e.err }
func (e *statusError) HTTPStatus() int    { return e.status }
func (e *statusError) RetryAfter() string { return e.retryAfter }

// ctrlRevalidateActive(resolve, reject, ctrl) refetches what the
// controller's subscriptions hold that is stale or invalid, and resolves
// with undefined when those fetches have settled, whatever they settled
// with: their errors reach the subscribers that hold the results.
func ctrlRevalidateActive(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	_ = c.c.RevalidateActive(context.Background())
	return safejs.Undefined(), nil
}

// ctrlClose(ctrl) stops the controller's timers: polling, waits between
// retries.
func ctrlClose(args []safejs.Value) (any, error) {
	c, err := lookup[*ctrl](arg(args, 0), "a controller")
	if err != nil {
		return nil, err
	}
	c.c.Close()
	return nil, nil
}
