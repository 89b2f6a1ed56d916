package controller

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// Queries (data-client's ctrl.get with schema.All and schema.Query): data
// read from the entity tables with no request and no endpoint result.

// maxQueryMemos bounds how many (schema, args) reads Get keeps memos for.
// Past it they are all dropped, which costs the next reads their identity
// once; an app reads a few queries with a few args each.
const maxQueryMemos = 1024

// queryKey names one memoized read: the schema, and its args as JSON.
type queryKey struct {
	s    schema.Schema
	args string
}

// queryMemo is what Get keeps of one read: the denormalization memo of
// the input, and the last Process result with the input it was made from.
type queryMemo struct {
	memo      schema.Memo
	processed bool
	in, out   value.Value
}

// Get reads s from the cache with args, with no request: an Entity (args
// [0] are params naming its pk, as {id: 5}), a schema.All (every stored
// entity of its type that is not deleted, optimistic ones included), or
// a schema.Query over one of those, whose Process derives the value from
// that read and args. A read that finds nothing (no entity under that pk,
// or a deleted one; for All, no entity of its types ever stored) is
// Undefined, and a Query's Process is not called.
//
// The read is memoized per schema and args: the identical Value until an
// entity it read changes (for All, until any entity of its type is
// stored, changed or removed); a Query's Process runs again only then.
// Process is caller code, called outside the controller's lock: it may
// read the controller. Any other schema is an error wrapping
// schema.ErrNotQueryable.
func (c *Controller) Get(s schema.Schema, args ...value.Value) (value.Value, error) {
	read, input, ok, err := schema.QueryInput(s, args)
	if err != nil {
		return value.Undef, fmtlite.Errorf("controller.Get: %w", err)
	}
	if !ok {
		return value.Undef, nil
	}
	key := queryKey{s: s, args: value.Arr(args...).JSON()}
	c.lock()
	m := c.queries[key]
	if m == nil {
		if len(c.queries) >= maxQueryMemos {
			clear(c.queries)
		}
		if c.queries == nil {
			c.queries = map[queryKey]*queryMemo{}
		}
		m = &queryMemo{}
		c.queries[key] = m
	}
	if c.nothingToList(read) {
		c.release()
		return value.Undef, nil
	}
	v, st := c.denormalizeLocked(read, input, &m.memo, schema.ArgsOf(args))
	q, _ := s.(*schema.Query)
	if st != schema.Found || v.IsUndefined() {
		c.unlock()
		return value.Undef, nil
	}
	if q == nil || q.Process == nil {
		c.unlock()
		return v, nil
	}
	if m.processed && value.Same(m.in, v) {
		out := m.out
		c.unlock()
		return out, nil
	}
	c.unlock()
	out := q.Process(v, args)
	c.lock()
	m.processed, m.in, m.out = true, v, out
	c.unlock()
	return out, nil
}

// denormalizeLocked reads result by s from the store, c.mu held. Caller
// code runs in the read (an Entity's Valid, a lens); should it panic, the
// lock is released before the panic goes on to Get's caller, so that the
// controller keeps working.
func (c *Controller) denormalizeLocked(s schema.Schema, result value.Value, memo *schema.Memo, args schema.Args) (value.Value, schema.Status) {
	ok := false
	defer func() {
		if !ok {
			c.release()
		}
	}()
	v, st := schema.DenormalizeArgs(s, result, c.st, memo, c.st.Version(), args)
	ok = true
	return v, st
}

// nothingToList reports whether read is an All, or an object with an All
// member, none of whose entities has ever been stored (deleted ones count:
// a table whose entities were all deleted lists nothing, where one never
// stored is nothing to list yet, as data-client tells them apart). Such a
// read is Undefined. Called with c.mu held.
func (c *Controller) nothingToList(read schema.Schema) bool {
	stored := func(a *schema.All) bool {
		for _, e := range a.Entities() {
			if e != nil && len(c.st.TablePKs(e.Key)) > 0 {
				return true
			}
		}
		return false
	}
	switch s := read.(type) {
	case *schema.All:
		return !stored(s)
	case *schema.Object:
		for _, f := range s.Fields {
			if a, isAll := f.Schema.(*schema.All); isAll && !stored(a) {
				return true
			}
		}
	}
	return false
}

// listener is one Listen registration.
type listener struct {
	fn func()
	// queued is set while a call is waiting in the queue, so that changes
	// that come before it is delivered are told once; seen is the store
	// version it was last queued for.
	queued, stopped bool
	seen            uint64
}

// Listen calls fn after every change to the stored data (entities,
// results, optimistic layers, a reset) that a read could see, outside the
// controller's lock and in order with the subscriptions' listeners;
// changes that come before a call is delivered are told by that one call.
// It is how a view of Get (a query) learns that it should read again.
// The returned function stops it; it is safe to call more than once.
func (c *Controller) Listen(fn func()) (stop func()) {
	l := &listener{fn: fn}
	c.lock()
	l.seen = c.st.Version()
	c.listeners = append(c.listeners, l)
	c.unlock()
	return func() {
		c.lock()
		defer c.unlock()
		if l.stopped {
			return
		}
		l.stopped = true
		for i, x := range c.listeners {
			if x == l {
				c.listeners = append(c.listeners[:i:i], c.listeners[i+1:]...)
				break
			}
		}
	}
}

// queueListeners queues a call to every listener whose store version
// moved. Called with c.mu held, from changed.
func (c *Controller) queueListeners() {
	v := c.st.Version()
	for _, l := range c.listeners {
		if l.queued || l.seen == v {
			continue
		}
		l.queued, l.seen = true, v
		c.queue = append(c.queue, notification{listen: l})
	}
}
