package controller

import (
	"errors"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// The imperative operations below take effect before they return: the next
// GetResponse sees them.

// Invalidate marks the endpoint's result invalid: the next read fetches and
// waits, and subscribers refetch now. A kept error is dropped with it: the
// caller asked for a new fetch, which a kept error would otherwise refuse
// until it expires. The key is marked even when it holds no result, as
// data-client does: a read that would be inferred from the entity table
// (infer.go) fetches instead.
func (c *Controller) Invalidate(ep endpoint.Endpoint, params value.Value) error {
	key, err := ep.Key(params)
	if err != nil {
		return err
	}
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	at := c.lastStamp
	c.st.UpdateMeta(key, func(m *store.ResultMeta) { invalidate(m, at) })
	c.emit(&Event{Kind: Invalidate, Key: key, Keys: []string{key}, Endpoint: ep, Params: params, At: at})
	c.changed()
	return nil
}

// SetError stores err as the endpoint's error for params, as if its fetch
// had just failed: reads return it without a request until the endpoint's
// ErrorExpiryLength has passed (or Invalidate, InvalidateAll or ExpireAll
// drop it), subscribers are told, and stored data stays (GetResponse reads
// it as before, with Err set). It is data-client's controller.setError.
func (c *Controller) SetError(ep endpoint.Endpoint, params value.Value, err error) error {
	key, kerr := ep.Key(params)
	if kerr != nil {
		return kerr
	}
	if err == nil {
		return fmtlite.Errorf("%s: setError: the error is nil", key)
	}
	expires := c.now() + c.errorExpiry(ep.Spec())
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	c.st.UpdateMeta(key, func(m *store.ResultMeta) {
		m.Err, m.ErrorExpiresAt = err, expires
	})
	c.changed()
	return nil
}

// InvalidateAll invalidates every stored result whose key passes test, and
// drops their kept errors (see Invalidate). test runs outside the
// controller's lock, over the keys stored when InvalidateAll was called:
// it may call the controller. A result it chose that is gone by the time
// it returns is skipped.
func (c *Controller) InvalidateAll(test func(key string) bool) {
	c.updateMeta(test, Invalidate, func(m *store.ResultMeta) { invalidate(m, c.lastStamp) })
}

// invalidate is what Invalidate and InvalidateAll do to a result, and a
// sync message's invalidation: at is the newest fetchedAt the invalidating
// controller knew then (its last stamp), which data fetched at or before
// it, coming from a snapshot or a message, does not make valid again
// (store.ResultMeta.InvalidatedAt).
func invalidate(m *store.ResultMeta, at int64) {
	if !m.Invalidated || at > m.InvalidatedAt {
		m.InvalidatedAt = at
	}
	m.Invalidated = true
	dropError(m)
}

// expireMeta is what ExpireAll does to a result.
func expireMeta(m *store.ResultMeta) {
	m.ExpiresAt = 0
	dropError(m)
}

// ExpireAll marks every stored result whose key passes test stale: the next
// read shows it and refetches in the background (a result with no data
// fetches and waits). Kept errors are dropped, or that next read would
// replay them instead of fetching. test runs outside the controller's
// lock, as InvalidateAll's does.
func (c *Controller) ExpireAll(test func(key string) bool) {
	c.updateMeta(test, Expire, expireMeta)
}

// dropError forgets the error kept in m.
func dropError(m *store.ResultMeta) { m.Err, m.ErrorExpiresAt = nil, 0 }

// updateMeta changes the results whose keys pass test (change runs with
// c.mu held); kind names the change (Invalidate or Expire). test is the
// caller's: it runs between two holds of the lock, so that it may call the
// controller, and panics with nothing changed.
func (c *Controller) updateMeta(test func(string) bool, kind EventKind, change func(*store.ResultMeta)) {
	c.lock()
	keys := c.st.Keys()
	c.unlock()
	chosen := keys[:0]
	for _, k := range keys {
		if test(k) {
			chosen = append(chosen, k)
		}
	}
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	keys = chosen[:0]
	for _, k := range chosen {
		if _, ok := c.st.Meta(k); !ok {
			continue // gone meanwhile: UpdateMeta would make it again
		}
		c.st.UpdateMeta(k, change)
		keys = append(keys, k)
	}
	// At: the stamp the invalidation was given (c.mu has been held since).
	c.emit(&Event{Kind: kind, Keys: keys, At: c.lastStamp})
	c.changed()
}

// ResetEntireStore empties the store and the optimistic queue. Responses to
// requests started before it are not stored.
func (c *Controller) ResetEntireStore() {
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	c.reset(false)
}

// reset is ResetEntireStore with c.mu held: a sync message's when sync
// is set.
func (c *Controller) reset(sync bool) {
	c.gen++
	close(c.resetCh) // requests waiting to retry stop
	c.resetCh = make(chan struct{})
	c.st.Reset()
	c.inflight = map[string]*call{}
	c.emit(&Event{Kind: Reset, Sync: sync})
	c.changed()
}

// SetResponse stores data as if the endpoint had fetched it for params.
func (c *Controller) SetResponse(ep endpoint.Endpoint, params, data value.Value) error {
	key, err := ep.Key(params)
	if err != nil {
		return err
	}
	return c.setResponse(ep, key, params, data)
}

// SetResponseKeyed is SetResponse for a caller that has worked out key as
// ep.Key(params) already (see GetResponseKeyed).
func (c *Controller) SetResponseKeyed(ep endpoint.Endpoint, key string, params, data value.Value) error {
	return c.setResponse(ep, key, params, data)
}

func (c *Controller) setResponse(ep endpoint.Endpoint, key string, params, data value.Value) error {
	if data.IsUndefined() && ep.Spec().Schema != nil {
		return fmtlite.Errorf("%s: setResponse: data is undefined", key)
	}
	// One read of the clock: the write's fetchedAt, Date and expiry.
	now := c.now()
	r := request{ep: ep, spec: ep.Spec(), key: key, params: params, startedAt: now, fetchedAt: c.stampAt(now)}
	var w store.Write
	if err := c.prepare(&w, &r, data, false, now); err != nil {
		return err
	}
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	if err := c.apply(&w, key, ": setResponse"); err != nil {
		return err
	}
	c.emitReq(Write, &r, nil, &w)
	c.changed()
	return nil
}

// Set stores v as the data of schema s read with args, with no request
// (data-client's ctrl.set): its entities are written as if a response had
// brought them now, with the controller's data expiry, and every result
// that reads them sees the change; no result is stored under a key. A
// Collection in s is stored by args[0] as its params (args[1] as its
// body), and an entity's PKFunc and Process get args as the request's. It
// is how data that
// comes without a request (a WebSocket or Server-Sent Events message) gets
// into the cache.
func (c *Controller) Set(s schema.Schema, args []value.Value, v value.Value) error {
	if s == nil {
		return errors.New("set: no schema")
	}
	var a schema.Args
	if len(args) > 0 {
		a.Params = args[0]
	}
	if len(args) > 1 {
		a.Body = args[1]
	}
	norm, err := schema.NormalizeArgs(s, v, a)
	if err != nil {
		return fmtlite.Errorf("set: %w", err)
	}
	now := c.now()
	w := store.Write{
		Schema: s, Result: norm.Result, Entities: norm.Entities, Collections: norm.Collections,
		Meta: schema.Meta{Date: now, FetchedAt: c.stampAt(now), ExpiresAt: now + c.opts.DataExpiryLength.Milliseconds()},
	}
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	if err := c.apply(&w, "", "set"); err != nil {
		return err
	}
	c.emitReq(Write, &request{}, nil, &w)
	c.changed()
	return nil
}

// State returns a JSON snapshot of the store for debugging and devtools:
// {entities, endpoints, meta, entitiesMeta, optimistic}. It is a copy.
func (c *Controller) State() value.Value {
	c.lock()
	defer c.unlock()
	return c.st.State()
}

// PendingOptimistic returns how many optimistic updates wait for their
// requests.
func (c *Controller) PendingOptimistic() int {
	c.lock()
	defer c.unlock()
	return c.st.PendingCount()
}

var _ schema.Source = (*store.Store)(nil)
