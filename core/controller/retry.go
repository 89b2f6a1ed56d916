package controller

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/internal/dates"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Retry policy (spec 9.2). A read endpoint (no SideEffect) whose request
// fails with an error a retry may cure (no response, 408, 429, ≥ 500) is
// tried again up to its Retry count, waiting RetryDelay (or what the
// response's Retry-After says) between attempts. The attempts are one
// request as far as anyone can see: the call stays in flight (shared,
// subscribers see loading) until the last one, and only the last error is
// kept and returned, as a *RetryError that counts the retries.

// Bounds of the default delay: 1 s, doubling with each retry, at most 30 s.
const (
	retryBaseDelay = time.Second
	retryMaxDelay  = 30 * time.Second
)

// DefaultRetryDelay is the delay before retry number attempt (from 0) when
// neither the endpoint nor the controller sets one: min(1 s × 2^attempt,
// 30 s).
func DefaultRetryDelay(attempt int, _ error) (time.Duration, error) {
	if attempt >= 5 { // 2^5 s is past the bound already; no overflow
		return retryMaxDelay, nil
	}
	return min(retryBaseDelay<<attempt, retryMaxDelay), nil
}

// RetryError is the error of a request that the retry policy applied to:
// the last attempt's error and how many retries were made before it (0
// when the first error was not one to retry). errors.Is and errors.As see
// through it to Err.
type RetryError struct {
	Err     error
	Retries int
}

// Error is Err's message, with the number of retries when there were any.
func (e *RetryError) Error() string {
	switch e.Retries {
	case 0:
		return e.Err.Error()
	case 1:
		return e.Err.Error() + " (after 1 retry)"
	}
	return e.Err.Error() + " (after " + strconv.Itoa(e.Retries) + " retries)"
}

// Unwrap returns Err.
func (e *RetryError) Unwrap() error { return e.Err }

// Retries returns how many retries were made before err, the error of a
// request: 0 when it is no *RetryError.
func Retries(err error) int {
	if re, ok := errors.AsType[*RetryError](err); ok {
		return re.Retries
	}
	return 0
}

// retries is how many retries spec's requests get.
func (c *Controller) retries(spec *endpoint.Spec) int {
	if spec.SideEffect {
		return 0
	}
	switch {
	case spec.Retry < 0:
		return 0
	case spec.Retry > 0:
		return spec.Retry
	}
	return c.opts.Retry
}

// retryable reports whether a retry may cure err: a request that got no
// response (not because it was aborted or timed out), or one answered
// 408, 429 or ≥ 500. Errors that carry no status (a schema's, a hook's)
// are not retried.
func retryable(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	se, ok := errors.AsType[endpoint.StatusError](err)
	if !ok {
		return false
	}
	switch s := se.HTTPStatus(); {
	case s == 0, s == 408, s == 429, s >= 500:
		return true
	}
	return false
}

// retryDelay is how long to wait before retry number attempt after err: a
// Retry-After header on a 429 or 503 when it parses, else the endpoint's
// RetryDelay, the controller's, or DefaultRetryDelay.
func (c *Controller) retryDelay(spec *endpoint.Spec, attempt int, err error) (time.Duration, error) {
	if se, ok := errors.AsType[endpoint.StatusError](err); ok {
		if s := se.HTTPStatus(); s == 429 || s == 503 {
			if d, ok := parseRetryAfter(se.RetryAfter(), c.opts.Now()); ok {
				return d, nil
			}
		}
	}
	delay := spec.RetryDelay
	if delay == nil {
		delay = c.opts.RetryDelay
	}
	if delay == nil {
		delay = DefaultRetryDelay
	}
	d, derr := delay(attempt, err)
	if derr != nil {
		return 0, derr
	}
	return max(d, 0), nil
}

// parseRetryAfter reads a Retry-After header: delay-seconds, or an HTTP
// date (a date in the past is no wait). ok is false when h is neither.
func parseRetryAfter(h string, now time.Time) (d time.Duration, ok bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(h, 10, 32); err == nil {
		return time.Duration(secs) * time.Second, true
	}
	// An HTTP date (RFC 9110 5.6.7): package dates reads the three forms
	// a recipient must accept, without net/http or time's layouts.
	if ms, ok := dates.HTTP(h); ok {
		return max(time.UnixMilli(ms).Sub(now), 0), true
	}
	return 0, false
}

// bodyFetcher is implemented by endpoints that can hand over a response's
// JSON text before parsing it (rest.Endpoint.FetchBody): text is "" when
// their value is not the plain parse of a text; parse gives the value as
// Fetch would.
type bodyFetcher interface {
	FetchBody(ctx context.Context, params value.Value, body any) (text string, parse func() (value.Value, error), err error)
}

// fetched is what fetchText got: a response's value (raw), or, when the
// store may take its text (text) again without parsing it, raw Undefined
// with the text's parse, not called, and the store's token for it.
type fetched struct {
	raw   value.Value
	text  string
	token uint64
	// elem, when set, is the one element of the list in text that
	// differs from the text the store holds (store.MayReapplyElem).
	elem  *store.Elem
	parse func() (value.Value, error)
}

// fetchText fetches r, retrying as the retry policy says, for a caller
// that may skip parsing a response whose text the store holds already.
// When reuse is set and r's endpoint is a bodyFetcher that hands over the
// response's text, it returns that text too, and when mayReapply says the
// store may take that text again, it returns it unparsed (see fetched);
// otherwise parse is nil and raw the value, parsed.
func (c *Controller) fetchText(ctx context.Context, r *request, reuse bool) (f fetched, err error) {
	limit := c.retries(r.spec)
	bf, _ := r.ep.(bodyFetcher)
	if !reuse {
		bf = nil
	}
	for attempt := 0; ; attempt++ {
		if bf != nil {
			var parse func() (value.Value, error)
			f.text, parse, err = bf.FetchBody(ctx, r.params, r.body)
			if err == nil {
				if f.text != "" {
					if token, ok := c.mayReapply(r.key, f.text, r.params); ok {
						return fetched{raw: value.Undef, text: f.text, token: token, parse: parse}, nil
					}
					if e, ok := c.mayReapplyElem(r.key, f.text, r.params); ok {
						return fetched{raw: value.Undef, text: f.text, elem: &e, parse: parse}, nil
					}
				}
				f.raw, err = parse()
			}
		} else {
			f.raw, err = r.ep.Fetch(ctx, r.params, r.body)
		}
		if err == nil {
			return fetched{raw: f.raw, text: f.text}, nil
		}
		if limit == 0 {
			return fetched{raw: f.raw}, err
		}
		if attempt == limit || !retryable(err) {
			return fetched{raw: value.Undef}, &RetryError{Err: err, Retries: attempt}
		}
		d, derr := c.retryDelay(r.spec, attempt, err)
		if derr != nil {
			return fetched{raw: value.Undef}, &RetryError{Err: fmtlite.Errorf("%s: retryDelay: %w (retrying after: %w)", r.key, derr, err), Retries: attempt}
		}
		if stop := c.waitRetry(ctx, r, d); stop != nil {
			if _, abort := stop.(*abortedWait); abort {
				// An abort, named as one (AbortError), not as the error
				// it interrupted the retries of; that one is only told.
				return fetched{raw: value.Undef}, &RetryError{Err: fmtlite.Errorf("%s: %w (the last attempt failed: %v)", r.key, stop, err), Retries: attempt}
			}
			return fetched{raw: value.Undef}, &RetryError{Err: fmtlite.Errorf("%s: %w (the last attempt failed: %w)", r.key, stop, err), Retries: attempt}
		}
	}
}

// waitRetry waits d before a retry, on the controller's timers. It returns
// nil when the retry may go ahead, or why it may not: the caller's context
// or the endpoint's signal is done (an abort), the store was reset, or the
// controller closed.
func (c *Controller) waitRetry(ctx context.Context, r *request, d time.Duration) error {
	ep := r.ep
	c.lock()
	reset, closed := c.resetCh, c.closedCh
	stale := r.gen != c.gen
	c.unlock()
	if stale {
		return ErrReset
	}
	var signal <-chan struct{}
	if s, ok := ep.(endpoint.Signaler); ok {
		if sig := s.Signal(); sig != nil {
			signal = sig.Done()
		}
	}
	fire := make(chan struct{})
	stop := c.opts.AfterFunc(d, func() { close(fire) })
	defer stop()
	select {
	case <-fire:
		return nil
	case <-ctx.Done():
		return &abortedWait{context.Cause(ctx)}
	case <-signal:
		return &abortedWait{context.Canceled}
	case <-reset:
		return ErrReset
	case <-closed:
		return ErrClosed
	}
}

// abortedWait is why a wait for a retry stopped when the caller's context
// or the endpoint's signal was done: a cancellation (context.Canceled) or
// a deadline, as errors.Is finds.
type abortedWait struct{ cause error }

func (e *abortedWait) Error() string {
	return "request aborted while waiting to retry: " + e.cause.Error()
}
func (e *abortedWait) Unwrap() error { return e.cause }
