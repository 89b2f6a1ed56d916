// Package inspect derives what a cache inspector shows of a controller at
// one moment: entities by type, each result with its expiry status and time
// left, the optimistic queue, the requests in flight and the last errors.
// Both inspectors use it: the JavaScript one (df.inspect, which gets the
// model as JSON through the bridge) and the go-app demo's. It only reads:
// the controller's State and Requests, and its clock.
package inspect

import (
	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// MaxErrors is how many errors Model.Errors holds at most, newest first.
const MaxErrors = 10

// Expiry statuses of a Result, as getResponse names them.
const (
	Valid   = "valid"
	Stale   = "stale"
	Invalid = "invalid"
	// Missing is a result stored for its metadata alone: an error (or an
	// invalidation) before any data.
	Missing = "missing"
)

// Model is one inspection of a controller.
type Model struct {
	// Now is the controller's clock when the model was taken (epoch ms):
	// time left and ages are relative to it.
	Now        int64
	Entities   []Type
	Results    []Result
	Optimistic []Pending
	Requests   []Request
	// Errors are the results whose last fetch failed, newest first (by
	// when the error expires), at most MaxErrors.
	Errors []Error
	// State is the controller's State() the model was derived from, for
	// an inspector that shows records too; it is not part of Value.
	State value.Value
}

// Type is one entity table.
type Type struct {
	Type  string
	Count int
	// Deleted counts the records stored as deleted (null in State).
	Deleted int
}

// Result is one stored result.
type Result struct {
	Key, Label string
	Status     string // Valid, Stale, Invalid or Missing
	FetchedAt  int64
	ExpiresAt  int64
	// TimeLeft is ExpiresAt - Now for a Valid result, 0 otherwise.
	TimeLeft int64
	// Error is the message of the error its last fetch kept, while kept.
	Error string
}

// Pending is one optimistic update waiting for its request.
type Pending struct {
	Key, Label string
	FetchedAt  int64
}

// Request is one request in flight.
type Request struct {
	Key, Label string
	StartedAt  int64
	Mutation   bool
}

// Error is the last error of one result.
type Error struct {
	Key, Label string
	Message    string
	ExpiresAt  int64
	// Kept is true while the error is still answered to reads (Now is
	// before ExpiresAt).
	Kept bool
}

// Options tune labels.
type Options struct {
	// Prefix, such as "http://127.0.0.1:8080/rest", is left out of the
	// URLs of labels (and of page tokens inside them). Without it a label
	// leaves out the URL's scheme and host.
	Prefix string
}

// Take inspects c now.
func Take(c *controller.Controller, o Options) Model {
	// The clock first: a result that expires between the two reads shows
	// as valid with no time left rather than stale with some.
	now := c.Now().UnixMilli()
	return Of(c.State(), c.Requests(), now, o)
}

// Of derives the model from a State() snapshot, the requests in flight and
// the time now (epoch ms).
func Of(state value.Value, requests []controller.Request, now int64, o Options) Model {
	m := Model{Now: now, State: state}
	for _, t := range state.Get("entities").Members() {
		row := Type{Type: t.Key, Count: t.Value.Len()}
		for _, r := range t.Value.Members() {
			if r.Value.IsNull() {
				row.Deleted++
			}
		}
		m.Entities = append(m.Entities, row)
	}
	// The keys that hold data, as a set: a lookup in the endpoints object
	// is a scan of its members, which made this quadratic in the results.
	endpoints := state.Get("endpoints").Members()
	stored := make(map[string]struct{}, len(endpoints))
	for _, e := range endpoints {
		stored[e.Key] = struct{}{}
	}
	for _, e := range state.Get("meta").Members() {
		meta := e.Value
		r := Result{
			Key: e.Key, Label: Label(e.Key, o.Prefix),
			FetchedAt: ms(meta.Get("fetchedAt")), ExpiresAt: ms(meta.Get("expiresAt")),
		}
		switch {
		case meta.Get("invalidated").Boolean():
			r.Status = Invalid
		case !has(stored, e.Key):
			r.Status = Missing
		case now >= r.ExpiresAt:
			r.Status = Stale
		default:
			r.Status, r.TimeLeft = Valid, r.ExpiresAt-now
		}
		if msg, ok := meta.Get("error").Text(); ok {
			until := ms(meta.Get("errorExpiresAt"))
			kept := now < until
			if kept {
				r.Error = msg
			}
			m.Errors = addError(m.Errors, Error{Key: e.Key, Label: r.Label, Message: msg, ExpiresAt: until, Kept: kept})
		}
		m.Results = append(m.Results, r)
	}
	for _, p := range state.Get("optimistic").Elems() {
		key := p.Get("key").Str()
		m.Optimistic = append(m.Optimistic, Pending{Key: key, Label: Label(key, o.Prefix), FetchedAt: ms(p.Get("fetchedAt"))})
	}
	for _, q := range requests {
		m.Requests = append(m.Requests, Request{Key: q.Key, Label: Label(q.Key, o.Prefix), StartedAt: q.StartedAt, Mutation: q.Mutation})
	}
	return m
}

// has reports whether key is in set.
func has(set map[string]struct{}, key string) bool {
	_, ok := set[key]
	return ok
}

// addError inserts e into errs, newest (latest ExpiresAt) first, keeping at
// most MaxErrors; of equal ones, the earlier stays first. An insertion
// rather than a library sort: less code in the WebAssembly module.
func addError(errs []Error, e Error) []Error {
	i := len(errs)
	for i > 0 && errs[i-1].ExpiresAt < e.ExpiresAt {
		i--
	}
	if i == MaxErrors {
		return errs
	}
	errs = append(errs, Error{})
	copy(errs[i+1:], errs[i:])
	errs[i] = e
	if len(errs) > MaxErrors {
		errs = errs[:MaxErrors]
	}
	return errs
}

// ms returns a Number as int64 milliseconds (schema.Millis); 0 for
// anything else.
func ms(v value.Value) int64 {
	f, _ := v.Float()
	t, err := schema.Millis(f)
	if err != nil {
		return 0
	}
	return t
}

// Value returns the model as JSON data (State left out), members named as
// in JavaScript: {now, entities: [{type, count, deleted}], results: [{key,
// label, status, fetchedAt, expiresAt, timeLeft, error?}], optimistic:
// [{key, label, fetchedAt}], requests: [{key, label, startedAt, mutation}],
// errors: [{key, label, message, expiresAt, kept}]}.
func (m Model) Value() value.Value {
	return value.Obj(
		value.M("now", value.Int(m.Now)),
		value.M("entities", rows(m.Entities, func(t Type) value.Value {
			return value.Obj(value.M("type", value.Str(t.Type)), value.M("count", value.Int(int64(t.Count))), value.M("deleted", value.Int(int64(t.Deleted))))
		})),
		value.M("results", rows(m.Results, func(r Result) value.Value {
			members := []value.Member{
				value.M("key", value.Str(r.Key)), value.M("label", value.Str(r.Label)), value.M("status", value.Str(r.Status)),
				value.M("fetchedAt", value.Int(r.FetchedAt)), value.M("expiresAt", value.Int(r.ExpiresAt)), value.M("timeLeft", value.Int(r.TimeLeft)),
			}
			if r.Error != "" {
				members = append(members, value.M("error", value.Str(r.Error)))
			}
			return value.Obj(members...)
		})),
		value.M("optimistic", rows(m.Optimistic, func(p Pending) value.Value {
			return value.Obj(value.M("key", value.Str(p.Key)), value.M("label", value.Str(p.Label)), value.M("fetchedAt", value.Int(p.FetchedAt)))
		})),
		value.M("requests", rows(m.Requests, func(q Request) value.Value {
			return value.Obj(value.M("key", value.Str(q.Key)), value.M("label", value.Str(q.Label)),
				value.M("startedAt", value.Int(q.StartedAt)), value.M("mutation", value.BoolV(q.Mutation)))
		})),
		value.M("errors", rows(m.Errors, func(e Error) value.Value {
			return value.Obj(value.M("key", value.Str(e.Key)), value.M("label", value.Str(e.Label)), value.M("message", value.Str(e.Message)),
				value.M("expiresAt", value.Int(e.ExpiresAt)), value.M("kept", value.BoolV(e.Kept)))
		})),
	)
}

func rows[T any](xs []T, row func(T) value.Value) value.Value {
	out := make([]value.Value, len(xs))
	for i, x := range xs {
		out[i] = row(x)
	}
	return value.Arr(out...)
}
