// Package endpoint defines what the controller runs: an Endpoint knows how to
// key and fetch one kind of request and declares how its result is cached.
// REST endpoints (package rest) are one implementation; anything that can
// produce a value from params can be another.
package endpoint

import (
	"context"
	"errors"
	"time"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Endpoint is one kind of request. Implementations are immutable and safe
// for concurrent use.
type Endpoint interface {
	// Key returns the store key of the result for params: equal params give
	// equal keys, and keys of different endpoints never collide.
	Key(params value.Value) (string, error)
	// Fetch performs the request and returns the response value that will be
	// normalized by the Spec's Schema.
	Fetch(ctx context.Context, params value.Value, body any) (value.Value, error)
	// Spec returns the endpoint's caching behaviour; callers must not modify it.
	Spec() *Spec
}

// RequestKeyer is implemented by endpoints whose requests differ more
// finely than their results: every page of a paginated list stores to the
// one result of the list, yet a request for page 2 must not be answered by
// one for page 1 that is in flight. A controller shares a request in flight
// only with requests of the same RequestKey; for other endpoints, of the
// same Key.
type RequestKeyer interface {
	RequestKey(params value.Value) (string, error)
}

// Spec declares how an endpoint's results are cached and mutated.
type Spec struct {
	// Name names the endpoint in keys and errors.
	Name string
	// Schema normalizes the response; nil stores the fetch result as it is.
	Schema schema.Schema
	// DataExpiryLength is how long a result stays fresh; 0 takes the
	// controller's default (60 s).
	DataExpiryLength time.Duration
	// ErrorExpiryLength is how long an error is kept; 0 takes the
	// controller's default (1 s).
	ErrorExpiryLength time.Duration
	// InvalidIfStale makes stale data count as missing: reads wait for the
	// refetch instead of showing the stale value.
	InvalidIfStale bool
	// SideEffect marks mutations: never deduplicated, never cached by key.
	SideEffect bool
	// PollFrequency, when non-zero, refetches a subscribed result this often.
	PollFrequency time.Duration
	// Retry is how many times a failed request is tried again: 0 takes the
	// controller's default (none unless set), a negative value means none
	// whatever the controller's default. Only endpoints without SideEffect
	// retry, and only for errors a retry may cure (see [StatusError]).
	Retry int
	// RetryDelay, when set, says how long to wait before retry number
	// attempt (from 0) after err; nil takes the controller's, whose default
	// is min(1 s × 2^attempt, 30 s). A Retry-After header on a 429 or 503
	// replaces it. An error stops the retries and fails the request.
	RetryDelay func(attempt int, err error) (time.Duration, error)
	// GetOptimisticResponse returns the value to apply before the network
	// answers, as if it were the response. Returning ErrAbortOptimistic
	// applies nothing; the request still runs. Only a SideEffect endpoint
	// runs it, as in data-client: a read ignores one it has (inherited
	// from options shared with mutations). Its records may lack a pk (a
	// create): each is stored under a schema.TemporaryPK until the
	// answer replaces it.
	GetOptimisticResponse func(snap Snapshot, params value.Value, body any) (value.Value, error)
	// Update names other results (by key) to rewrite once this endpoint's
	// result is stored: each function gets that result's stored pks and
	// returns the new ones. newPKs is this result's pk or list of pks.
	Update func(newPKs, params value.Value) (map[string]func(pks value.Value) value.Value, error)
	// MergeResult, when set, decides per request how its normalized result
	// meets the one already stored under Key. Called with the request's
	// params, it returns the function that combines the two (a later page
	// of an infinite list is appended), or nil when the result replaces the
	// stored one as any endpoint's does (the list's first page, so that a
	// refresh drops what the server no longer has). A nil MergeResult
	// always replaces. The returned function must be pure: a rebase of the
	// optimistic queue calls it again.
	MergeResult func(params value.Value) func(existing, incoming value.Value) value.Value
	// Args, when set, gives the args a response is normalized with (a
	// schema.Collection is stored by them) from the request's params and
	// body; nil takes the params and a value.Value body as they are. A
	// paginated endpoint leaves its page param out, and asks a later page
	// to be appended.
	Args func(params value.Value, body any) schema.Args
}

// StatusError is implemented by errors of requests that reached (or tried
// to reach) a server, such as rest's *NetworkError: the controller reads it
// to decide whether a retry may help.
type StatusError interface {
	error
	// HTTPStatus is the response's status, 0 when no response arrived.
	HTTPStatus() int
	// RetryAfter is the response's Retry-After header, "" when none.
	RetryAfter() string
}

// Signaler is implemented by endpoints whose requests a signal of their own
// aborts (rest's Signal option). A controller waiting to retry such a
// request stops waiting once the signal is done. Signal returns nil when
// the endpoint has none.
type Signaler interface {
	Signal() context.Context
}

// ErrAbortOptimistic is returned by GetOptimisticResponse to apply no
// optimistic data, for example when the value it needs is not cached.
var ErrAbortOptimistic = errors.New("optimistic update aborted")

// ExpiryStatus says whether a stored result can be used.
type ExpiryStatus string

// The expiry statuses of a result, as data-client names them.
const (
	Valid   ExpiryStatus = "valid"
	Stale   ExpiryStatus = "stale"
	Invalid ExpiryStatus = "invalid"
	Missing ExpiryStatus = "missing"
)

// Response is a synchronous read of one result.
type Response struct {
	// Data is the denormalized result; Undefined when missing.
	Data         value.Value
	ExpiryStatus ExpiryStatus
	// ExpiresAt is when the result goes stale, epoch ms; 0 when missing.
	ExpiresAt int64
	// Err is the stored error while it has not expired.
	Err error
	// Inferred is true when nothing is stored under the endpoint's key and
	// Data was read from the entity table instead: the endpoint's schema
	// is an Entity and its params name the pk of a stored entity that has
	// not expired (see the controller's doc). ExpiresAt is then the
	// entity's, and once it passes the read is no longer inferred: it
	// turns Missing, not Stale.
	Inferred bool
}

// Snapshot is the store as an optimistic update sees it: base data with
// every earlier pending optimistic update applied.
type Snapshot interface {
	GetResponse(e Endpoint, params value.Value) Response
	// Get reads s from the cache with args, with no request, as the
	// controller's Get does (data-client's snap.get): an Entity by the
	// params naming its pk, a schema.All, a schema.Query over them.
	// Nothing found is Undefined.
	Get(s schema.Schema, args ...value.Value) (value.Value, error)
	// FetchedAt is when the fetch was triggered, epoch ms.
	FetchedAt() int64
}
