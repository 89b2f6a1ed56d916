package rest

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// NetworkError is a failed request: a response with a status that is not
// 2xx, a 2xx body that is not the JSON the schema expects (Status 400), or
// no response at all (Status 0: a network failure, a cancellation or a
// timeout, with the cause in Err).
type NetworkError struct {
	// Status is the HTTP status, or 0 when no response arrived.
	Status     int
	StatusText string
	// Method, URL and Endpoint say which request failed.
	Method, URL, Endpoint string
	// Body is the response body when it is JSON; Undefined otherwise.
	Body value.Value
	// Response is the response, when one arrived.
	Response *Response
	// Err is the underlying error, such as the transport's or a
	// *value.SyntaxError; nil for a plain error status.
	Err error
}

// maxDetail bounds how much of a response body an error message quotes.
const maxDetail = 200

// Error says which endpoint and request failed, the status, and what went
// wrong, as
// "getArticle: GET http://host/articles/9: 404 Not Found: {"error":"no such article"}".
func (e *NetworkError) Error() string {
	var b strings.Builder
	if e.Endpoint != "" {
		b.WriteString(e.Endpoint)
		b.WriteString(": ")
	}
	if e.Method != "" || e.URL != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.URL))
		b.WriteString(": ")
	}
	if e.Status == 0 {
		switch e.Name() {
		case "AbortError":
			b.WriteString("request aborted")
		case "TimeoutError":
			b.WriteString("request timed out")
		default:
			b.WriteString("network error")
		}
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(e.Err.Error())
		}
		return b.String()
	}
	b.WriteString(strconv.Itoa(e.Status))
	if e.StatusText != "" {
		b.WriteByte(' ')
		b.WriteString(e.StatusText)
	}
	if e.Err != nil {
		b.WriteByte(' ')
		b.WriteString(e.Err.Error())
	}
	if d := e.detail(); d != "" {
		b.WriteString(": ")
		b.WriteString(d)
	}
	return b.String()
}

// detail quotes the response body for the message: as JSON when it parsed,
// else as a quoted snippet of its text.
func (e *NetworkError) detail() string {
	if !e.Body.IsUndefined() {
		return truncate(e.Body.JSON())
	}
	if e.Response == nil || isBlank(e.Response.Body) {
		return ""
	}
	return strconv.Quote(truncate(strings.TrimSpace(string(e.Response.Body))))
}

func truncate(s string) string {
	if len(s) <= maxDetail {
		return s
	}
	cut := maxDetail
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// HTTPStatus returns Status, for the controller's retry policy
// (endpoint.StatusError).
func (e *NetworkError) HTTPStatus() int { return e.Status }

// RetryAfter returns the response's Retry-After header, "" when there is
// no response or no such header.
func (e *NetworkError) RetryAfter() string {
	if e.Response == nil {
		return ""
	}
	return e.Response.Header.Get("Retry-After")
}

var _ endpoint.StatusError = (*NetworkError)(nil)

// Unwrap returns Err.
func (e *NetworkError) Unwrap() error { return e.Err }

// Name returns the JavaScript error name for e: "AbortError" for a
// cancelled request, "TimeoutError" for one past its deadline, and
// "NetworkError" otherwise.
func (e *NetworkError) Name() string {
	switch {
	case errors.Is(e.Err, context.Canceled):
		return "AbortError"
	case errors.Is(e.Err, context.DeadlineExceeded):
		return "TimeoutError"
	}
	return "NetworkError"
}

// fill sets the endpoint, method and URL where they are unset.
func (e *NetworkError) fill(endpoint, method, url string) {
	if e.Endpoint == "" {
		e.Endpoint = endpoint
	}
	if e.Method == "" {
		e.Method = method
	}
	if e.URL == "" {
		e.URL = url
	}
}

// ErrorName returns the JavaScript name of the error a fetch returned, for
// bridges that rethrow it: a *NetworkError's Name, "AbortError" or
// "TimeoutError" for other errors caused by a cancelled or expired context,
// and "Error" for anything else; "" for nil.
func ErrorName(err error) string {
	if err == nil {
		return ""
	}
	if ne, ok := errors.AsType[*NetworkError](err); ok {
		return ne.Name()
	}
	switch {
	case errors.Is(err, context.Canceled):
		return "AbortError"
	case errors.Is(err, context.DeadlineExceeded):
		return "TimeoutError"
	}
	return "Error"
}

// timeoutError is the cause of a request stopped by the Timeout option. It
// is a context.DeadlineExceeded that says which timeout it was.
type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string        { return "timeout of " + e.d.String() + " exceeded" }
func (e *timeoutError) Is(target error) bool { return target == context.DeadlineExceeded }

// contextError returns why ctx is done: an error that is ctx.Err() (so
// errors.Is finds context.Canceled or context.DeadlineExceeded) and that
// carries the cancellation cause when there is one.
func contextError(ctx context.Context) error {
	err := ctx.Err()
	cause := context.Cause(ctx)
	switch {
	case cause == nil || cause == err:
		return err
	case errors.Is(cause, err):
		return cause
	}
	return fmtlite.Errorf("%w: %w", err, cause)
}
