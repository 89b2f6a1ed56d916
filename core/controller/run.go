package controller

import (
	"context"
	"errors"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/internal/fmtlite"
)

// request is one request of an endpoint as it goes through the pipeline
// (run, fetchText, prepare, finish): what it asks for, and what the
// controller fixed when it started. One value, so that each step takes
// the request rather than the half of its parts it needs.
type request struct {
	ep     endpoint.Endpoint
	spec   *endpoint.Spec
	key    string // the result key
	params value.Value
	body   any
	// cl is the shared call it serves, nil for a mutation or a write with
	// no request (SetResponse).
	cl *call
	// gen is the store's generation when it started: a response to a
	// request older than a ResetEntireStore is not stored.
	gen uint64
	// startedAt is the clock's reading when it started; fetchedAt its
	// stamp, startedAt or just after the previous request's.
	startedAt, fetchedAt int64
	_                    [0]func() // not comparable: no equality function in the module
}

// newRequest is the request of ep for key with params and body, serving
// cl (nil for a mutation); run stamps it when it starts.
func newRequest(ep endpoint.Endpoint, key string, params value.Value, body any, cl *call) *request {
	return &request{ep: ep, spec: ep.Spec(), key: key, params: params, body: body, cl: cl}
}

// run performs request r: optimistic write, network, normalize, store,
// rollback on error. When r serves a shared call it leaves the in-flight
// table in the same critical section that stores the response, so no
// subscriber sees data without loading cleared.
func (c *Controller) run(ctx context.Context, r *request) (out value.Value, err error) {
	spec := r.spec
	r.startedAt = c.now()
	r.fetchedAt = c.stampAt(r.startedAt)
	c.lock()
	r.gen = c.gen
	c.emitReq(FetchStart, r, nil, nil)
	told := c.wants&maskOf(FetchStart) != 0
	c.unlock()
	if told {
		c.dispatch()
	}

	var pend *store.Pending
	defer func() {
		// A panic in a callback or schema hook fails this request only; in
		// wasm an escaped panic would end the whole instance.
		if p := recover(); p != nil {
			err = fmtlite.Errorf("%s: internal error: %v", r.key, p)
			if perr, ok := p.(error); ok {
				// Wrapped, so callers can still find what the callback
				// threw (the JavaScript bridge makes it the Error's cause).
				err = fmtlite.Errorf("%s: internal error: %w", r.key, perr)
			}
			c.finish(r, pend, nil, err)
			out = value.Undef
		}
	}()

	if spec.SideEffect && spec.GetOptimisticResponse != nil {
		// Only a mutation guesses its answer, as in data-client: a read
		// has nothing to guess, and a getOptimisticResponse it inherited
		// (a resource's shared options) would only break it.
		pend, err = c.applyOptimistic(r)
		if err != nil {
			c.finish(r, nil, nil, err)
			return value.Undef, err
		}
	}

	if c.opts.RequestContext != nil {
		ctx = c.opts.RequestContext(ctx)
	}
	reuse := c.mayReuse(spec, r.body)
	f, err := c.fetchText(ctx, r, reuse)
	raw := f.raw
	if err == nil && f.parse != nil {
		// The text the store holds under key already (or that text with
		// one element of its list changed): stored again without being
		// parsed, when nothing changed the store since.
		if out, ok := c.finishAgain(r, f, c.now()); ok {
			return out, nil
		}
		raw, err = f.parse()
	}
	if err == nil && raw.IsUndefined() && spec.Schema != nil {
		// No parsed body is undefined (an empty one is null): a fetch,
		// parseResponse or process callback returned nothing.
		err = fmtlite.Errorf("%s: the response is undefined, where the schema expects data", r.key)
	}
	var w *store.Write
	if err == nil {
		// The response arrived now: its Date, and its expiry counted from it.
		w = new(store.Write)
		err = c.prepare(w, r, raw, false, c.now())
		if err == nil && reuse {
			w.Text, w.TextParams = f.text, r.params
		}
	}
	return c.finish(r, pend, w, err)
}

// mayReuse reports whether a response of spec's endpoint to a request with
// body may be stored again from its text alone, unparsed, when it is the
// text the store holds (store.Reapply): when its value is the text's
// normalization and nothing else, with no hook between (Update,
// MergeResult or a side effect, which alone has an optimistic response,
// take the usual path), and no request body (which the normalization's
// args could read).
func (c *Controller) mayReuse(spec *endpoint.Spec, body any) bool {
	return !c.noReapply.Load() && body == nil && !spec.SideEffect &&
		spec.Update == nil && spec.MergeResult == nil
}

// mayReapplyElem reports whether text under key is the text the store
// holds with one element of its list changed (store.MayReapplyElem).
func (c *Controller) mayReapplyElem(key, text string, params value.Value) (store.Elem, bool) {
	c.lock()
	defer c.unlock()
	return c.st.MayReapplyElem(key, text, params)
}

// mayReapply reports whether the store would take text under key again
// without it being parsed, and its token for finishAgain, which decides.
func (c *Controller) mayReapply(key, text string, params value.Value) (token uint64, ok bool) {
	c.lock()
	defer c.unlock()
	return c.st.MayReapply(key, text, params)
}

// finishAgain is finish of a response whose text fetchText found is the
// one stored under r.key (f.token), or that text with one element of its
// list changed (f.elem), stored again by store.Reapply without being
// parsed or normalized, or store.ReapplyElem with that element alone
// normalized; false when the store cannot (it changed since, or was
// reset, or the element's records are also others'), and the caller
// parses the text and stores it as usual.
func (c *Controller) finishAgain(r *request, f fetched, now int64) (out value.Value, ok bool) {
	var elem *schema.Normalized
	if f.elem != nil {
		// Outside the lock, as prepare normalizes.
		if elem = c.normalizeElem(r, f.elem.Text); elem == nil {
			return value.Undef, false
		}
	}
	c.lock()
	m := schema.Meta{Date: now, FetchedAt: r.fetchedAt, ExpiresAt: now + c.dataExpiry(r.spec)}
	stored := false
	if r.gen == c.gen && c.wants&wantWritten == 0 {
		if elem != nil {
			stored = c.st.ReapplyElem(*f.elem, r.spec.Schema, m, elem.Result, elem.Entities)
		} else {
			stored = c.st.Reapply(r.key, f.token, r.spec.Schema, m)
		}
	}
	if !stored {
		c.unlock()
		return value.Undef, false
	}
	defer c.dispatch()
	defer c.unlock()
	defer c.changed()
	if elem != nil {
		c.reappliedElems++
	} else {
		c.reapplied++
	}
	if cl := r.cl; cl != nil && c.inflight[cl.key] == cl {
		delete(c.inflight, cl.key)
	}
	for _, s := range c.subs[r.key] {
		s.settled = c.st.Version()
	}
	c.emitReq(FetchResolve, r, nil, nil)
	out, _, _, _ = c.st.ReadArgs(r.key, schema.Args{Params: r.params})
	return out, true
}

// normalizeElem normalizes text, a run of elements of r's response list
// as a list of its own (store.MayReapplyElem), by the list's schema (a
// Collection's record of the list stays as it is); nil when it is not a
// list (the caller then parses the whole response, which reports why).
func (c *Controller) normalizeElem(r *request, text string) *schema.Normalized {
	shape, ok := schema.ElementWise(r.spec.Schema)
	v, err := value.ParseLazy(text)
	if !ok || err != nil || v.Kind() != value.Array {
		return nil
	}
	norm, err := schema.NormalizeArgs(shape.List, v, normalizeArgs(r.spec, r.params, r.body))
	if err != nil {
		return nil
	}
	return norm
}

// prepare normalizes raw, a response to r (its optimistic response when
// optimistic is set: its records may lack a pk, schema.Args.Optimistic),
// into w, which a caller that applies the write at once can keep on its
// stack. The request's params and body are what collections are stored
// by (endpoint.Spec.Args); now is the time it is stored at (its Date; it
// expires a data expiry length later), read by the caller so that an
// operation reads the clock once.
func (c *Controller) prepare(w *store.Write, r *request, raw value.Value, optimistic bool, now int64) error {
	spec := r.spec
	args := normalizeArgs(spec, r.params, r.body)
	args.Optimistic = optimistic
	norm, err := schema.NormalizeArgs(spec.Schema, raw, args)
	if err != nil {
		return fmtlite.Errorf("%s: %w", r.key, err)
	}
	updates, err := c.updates(spec, r.key, norm.Result, r.params)
	if err != nil {
		return err
	}
	// The endpoint decides by params whether this result is merged into the
	// stored one (a later page) or replaces it (the first page).
	var merge func(existing, incoming value.Value) value.Value
	if spec.MergeResult != nil {
		merge = spec.MergeResult(r.params)
	}
	*w = store.Write{
		Key: r.key, Schema: spec.Schema, Result: norm.Result, Entities: norm.Entities,
		Meta:        schema.Meta{Date: now, FetchedAt: r.fetchedAt, ExpiresAt: now + c.dataExpiry(spec)},
		MergeResult: merge,
		Updates:     updates,
		Collections: norm.Collections,
	}
	return nil
}

// normalizeArgs returns the args a response is normalized with: the
// endpoint's Args, or the params and a JSON body as they are.
func normalizeArgs(spec *endpoint.Spec, params value.Value, body any) schema.Args {
	if spec.Args != nil {
		return spec.Args(params, body)
	}
	b, _ := body.(value.Value)
	return schema.Args{Params: params, Body: b}
}

func (c *Controller) updates(spec *endpoint.Spec, key string, result, params value.Value) (map[string]func(value.Value) value.Value, error) {
	if spec.Update == nil {
		return nil, nil
	}
	u, err := spec.Update(result, params)
	if err != nil {
		return nil, fmtlite.Errorf("%s: update: %w", key, err)
	}
	return u, nil
}

// applyOptimistic queues the endpoint's optimistic response for r.
// ErrAbortOptimistic queues nothing and is not an error. The optimistic
// data expires counted from r.startedAt, the clock's reading its
// fetchedAt was stamped from.
func (c *Controller) applyOptimistic(r *request) (*store.Pending, error) {
	v, err := r.spec.GetOptimisticResponse(&snapshot{c: c, fetchedAt: r.fetchedAt}, r.params, r.body)
	if errors.Is(err, endpoint.ErrAbortOptimistic) {
		return nil, nil
	}
	if err != nil {
		return nil, fmtlite.Errorf("%s: getOptimisticResponse: %w", r.key, err)
	}
	w := new(store.Write)
	if err := c.prepare(w, r, v, true, r.startedAt); err != nil {
		return nil, fmtlite.Errorf("optimistic response: %w", err)
	}
	w.Meta.Date = r.fetchedAt
	p, err := c.addPending(r, w)
	c.dispatch()
	return p, err
}

// addPending queues w, r's optimistic write, under the lock. The unlock
// is deferred because queuing runs caller code (merge hooks, Update
// functions) that may panic; run recovers, and must find the lock free.
func (c *Controller) addPending(r *request, w *store.Write) (*store.Pending, error) {
	c.lock()
	defer c.unlock()
	ch := &store.Change{Add: w}
	if err := c.make(ch, r.key, ": optimistic response"); err != nil {
		return nil, err
	}
	c.emitReq(OptimisticEnqueue, r, nil, nil)
	c.changed()
	return ch.Pending, nil
}

// finish stores r's response (w) or error, drops its optimistic write
// (pend), and returns what the caller gets: the stored result, read back.
// Managers are told how the request ended, then what became of its
// optimistic write.
func (c *Controller) finish(r *request, pend *store.Pending, w *store.Write, err error) (out value.Value, _ error) {
	defer c.dispatch()
	c.lock()
	defer c.unlock()
	defer c.changed()
	key, cl := r.key, r.cl
	if cl != nil && c.inflight[cl.key] == cl {
		delete(c.inflight, cl.key)
	}
	if r.gen != c.gen {
		if err == nil {
			err = fmtlite.Errorf("%s: %w", key, ErrReset)
		}
		c.emitReq(FetchReject, r, err, nil)
		return value.Undef, err
	}
	aborted := isAbort(err)
	settled := false // pend was removed with the response
	switch {
	case aborted:
		// Not an error of the data: as if no fetch had happened. The
		// caller that aborted gets the error; the result keeps none.
	case err != nil:
		now := c.now()
		c.st.UpdateMeta(key, func(m *store.ResultMeta) {
			m.Err, m.ErrorExpiresAt = err, now+c.errorExpiry(r.spec)
		})
	default:
		// The response and the end of its optimistic write, in one change:
		// no reader sees one without the other. Its hooks run with the
		// lock released: a reset meanwhile fails it with ErrReset, as
		// above.
		_ = c.st.Adopt(w.Key, w.Schema) // a result w replaces anyway
		if err = c.make(&store.Change{Write: w, Remove: pend}, key, ""); err == nil {
			settled = true
		}
	}
	if err != nil {
		c.emitReq(FetchReject, r, err, nil)
	} else {
		c.emitReq(FetchResolve, r, nil, w)
	}
	if pend != nil {
		if !settled {
			c.removePending(pend)
		}
		if err != nil {
			c.emitReq(OptimisticRollback, r, err, nil)
		} else {
			c.emitReq(OptimisticSettle, r, nil, nil)
		}
	}
	for _, s := range c.subs[key] {
		s.settled = c.st.Version()
		if aborted && cl != nil && sameEndpoint(s.ep, cl.ep) {
			// Its endpoint's signal aborted the fetch: fetching again with
			// it would only abort again, in a loop. It waits for a change.
			s.aborted, s.abortedAt = true, s.settled
		}
	}
	if err != nil {
		return value.Undef, err
	}
	out, _, _, _ = c.st.ReadArgs(key, schema.Args{Params: r.params})
	return out, nil
}

// isAbort reports whether err is a cancellation: a request aborted by its
// caller (an endpoint's Signal, which a JavaScript AbortSignal becomes, or
// a mutation's context). data-client treats an abort as "no fetch
// happened", so it is not kept as the result's error. A timeout
// (context.DeadlineExceeded) is a failed fetch, and is kept.
func isAbort(err error) bool {
	return err != nil && errors.Is(err, context.Canceled)
}

// sameEndpoint reports whether a and b are the same endpoint. Endpoints of
// a type that == cannot compare count as the same, which errs on the side
// of not refetching (see finish).
func sameEndpoint(a, b endpoint.Endpoint) (same bool) {
	defer func() {
		if recover() != nil {
			same = true
		}
	}()
	return a == b
}

// snapshot is the store as getOptimisticResponse sees it.
type snapshot struct {
	c         *Controller
	fetchedAt int64
}

func (s *snapshot) GetResponse(ep endpoint.Endpoint, params value.Value) endpoint.Response {
	return s.c.GetResponse(ep, params)
}

func (s *snapshot) Get(sch schema.Schema, args ...value.Value) (value.Value, error) {
	return s.c.Get(sch, args...)
}

func (s *snapshot) FetchedAt() int64 { return s.fetchedAt }
