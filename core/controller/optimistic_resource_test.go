package controller_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/rest/nethttp"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// noteAPI is a small REST server of notes ({id, title, tag}) for the
// optimistic resource tests: GET /notes lists them, GET /notes/:id reads
// one, POST /notes creates (id 101, 102...), PUT replaces, PATCH
// /notes/:id merges, PATCH /notes (a Collection's remove) answers the body
// and DELETE answers 204. While fail is set every mutation answers 500;
// while noID is set a create answers without an id.
type noteAPI struct {
	mu     sync.Mutex
	notes  []map[string]any
	nextID int
	fail   atomic.Bool
	noID   atomic.Bool
}

func (a *noteAPI) find(id string) int {
	for i, n := range a.notes {
		if n["id"] == id {
			return i
		}
	}
	return -1
}

func (a *noteAPI) handle(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var body map[string]any
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	w.Header().Set("Content-Type", "application/json")
	if r.Method != "GET" && a.fail.Load() {
		w.WriteHeader(500)
		_, _ = io.WriteString(w, `{"error":"failed on purpose"}`)
		return
	}
	id := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/notes"), "/")
	i := a.find(id)
	if id != "" && i < 0 && r.Method != "POST" {
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"error":"no such note"}`)
		return
	}
	var out any
	switch {
	case r.Method == "GET" && id == "":
		out = a.notes
	case r.Method == "GET":
		out = a.notes[i]
	case r.Method == "POST":
		if !a.noID.Load() {
			a.nextID++
			body["id"] = strconv.Itoa(100 + a.nextID)
			a.notes = append(a.notes, body)
		}
		out = body
	case r.Method == "PUT":
		body["id"] = id
		a.notes[i] = body
		out = body
	case r.Method == "PATCH" && id == "":
		out = body // a Collection's remove: the record to take out
	case r.Method == "PATCH":
		for k, v := range body {
			a.notes[i][k] = v
		}
		out = a.notes[i]
	case r.Method == "DELETE":
		a.notes = append(a.notes[:i], a.notes[i+1:]...)
		w.WriteHeader(204)
		return
	}
	_ = json.NewEncoder(w).Encode(out)
}

// note is the entity of noteAPI. Its Merge takes the incoming record as
// it is, so a read shows exactly what the last write (an optimistic
// response too) held: an update's optimistic record is params and body
// only, a partial update's keeps the stored fields.
var note = &schema.Entity{Key: "Note", Defaults: value.MustParse(`{"id":null,"title":"","tag":""}`),
	Merge: func(_, incoming value.Value) value.Value { return incoming }}

// noteServer serves three notes, held at the server when the test asks.
func noteServer(t *testing.T) (*heldServer, *noteAPI) {
	api := &noteAPI{}
	for i, title := range []string{"one", "two", "three"} {
		api.notes = append(api.notes, map[string]any{"id": strconv.Itoa(i + 1), "title": title, "tag": "t" + strconv.Itoa(i+1)})
	}
	return newHeldServer(t, api.handle), api
}

// noteResource is the resource of notes on s, with o's options.
func noteResource(t *testing.T, s *heldServer, o rest.ResourceOptions) *rest.Resource {
	t.Helper()
	o.URLPrefix, o.Path, o.Schema = s.URL, "/notes/:id", note
	o.Options.Transport = &nethttp.Transport{Client: s.Client()}
	r, err := rest.NewResource(o)
	require.NoError(t, err)
	return r
}

// showNotes renders a read list of notes as "id:title:tag" items, "?"
// for a record without an id (created, not answered yet).
func showNotes(v value.Value) string {
	var b strings.Builder
	for i, n := range v.Elems() {
		if i > 0 {
			b.WriteByte(' ')
		}
		id := "?"
		if v := n.Get("id"); !v.IsNullish() {
			id = v.Str()
		}
		fmt.Fprintf(&b, "%s:%s:%s", id, n.Get("title").Str(), n.Get("tag").Str())
	}
	return b.String()
}

// noteViews is what a reader sees: the list (getList with no params) and
// every stored note (schema.All), which shows a create that no list holds.
func noteViews(t *testing.T, c *controller.Controller, r *rest.Resource) (list, all string) {
	t.Helper()
	everything, err := c.Get(schema.AllOf(note))
	require.NoError(t, err)
	return showNotes(c.GetResponse(r.GetList, value.Obj()).Data), showNotes(everything)
}

// TestResourceOptimistic: resource({optimistic: true}) gives each mutation
// data-client's optimistic response, visible while its request is held at
// the server; the server's answer replaces it, and a failure takes it
// back. create's and push's records have no id yet: they are stored under
// a temporary pk and their requests go out all the same.
func TestResourceOptimistic(t *testing.T) {
	const before = "1:one:t1 2:two:t2 3:three:t3"
	cases := []struct {
		name         string
		ep           func(t *testing.T, r *rest.Resource) *rest.Endpoint
		params, body string
		request      string
		// The list and every note while the request is held, and after it
		// succeeded.
		list, all           string
		savedList, savedAll string
	}{{
		name: "create is params and body", ep: func(_ *testing.T, r *rest.Resource) *rest.Endpoint { return r.Create },
		params: `{}`, body: `{"title":"new","tag":"n"}`, request: "POST /notes",
		list: before, all: before + " ?:new:n",
		savedList: before, savedAll: before + " 101:new:n",
	}, {
		name: "update is params and body", ep: func(_ *testing.T, r *rest.Resource) *rest.Endpoint { return r.Update },
		params: `{"id":"1"}`, body: `{"title":"put"}`, request: "PUT /notes/1",
		list: "1:put: 2:two:t2 3:three:t3", all: "1:put: 2:two:t2 3:three:t3",
		savedList: "1:put: 2:two:t2 3:three:t3", savedAll: "1:put: 2:two:t2 3:three:t3",
	}, {
		name: "partialUpdate merges the stored record with the body", ep: func(_ *testing.T, r *rest.Resource) *rest.Endpoint { return r.PartialUpdate },
		params: `{"id":"2"}`, body: `{"title":"patched"}`, request: "PATCH /notes/2",
		list: "1:one:t1 2:patched:t2 3:three:t3", all: "1:one:t1 2:patched:t2 3:three:t3",
		savedList: "1:one:t1 2:patched:t2 3:three:t3", savedAll: "1:one:t1 2:patched:t2 3:three:t3",
	}, {
		name: "delete is the params", ep: func(_ *testing.T, r *rest.Resource) *rest.Endpoint { return r.Delete },
		params: `{"id":"3"}`, request: "DELETE /notes/3",
		list: "1:one:t1 2:two:t2", all: "1:one:t1 2:two:t2",
		savedList: "1:one:t1 2:two:t2", savedAll: "1:one:t1 2:two:t2",
	}, {
		name: "getList.push appends params and body", ep: collectionEndpoint((*rest.Endpoint).Push),
		params: `{}`, body: `{"title":"pushed"}`, request: "POST /notes",
		list: before + " ?:pushed:", all: before + " ?:pushed:",
		savedList: before + " 101:pushed:", savedAll: before + " 101:pushed:",
	}, {
		name: "getList.unshift prepends params and body", ep: collectionEndpoint((*rest.Endpoint).Unshift),
		params: `{}`, body: `{"title":"first"}`, request: "POST /notes",
		list: "?:first: " + before, all: before + " ?:first:",
		savedList: "101:first: " + before, savedAll: before + " 101:first:",
	}, {
		name: "getList.remove takes params and body out", ep: collectionEndpoint((*rest.Endpoint).Remove),
		params: `{}`, body: `{"id":"2","title":"two","tag":"t2"}`, request: "PATCH /notes",
		list: "1:one:t1 3:three:t3", all: before,
		savedList: "1:one:t1 3:three:t3", savedAll: before,
	}}
	for _, tc := range cases {
		for _, fail := range []bool{false, true} {
			name := tc.name
			if fail {
				name += ", rolled back on error"
			}
			t.Run(name, func(t *testing.T) {
				s, api := noteServer(t)
				r := noteResource(t, s, rest.ResourceOptions{Optimistic: true})
				ep := tc.ep(t, r)
				c := controller.New(controller.Options{})
				ctx := context.Background()
				_, err := c.Fetch(ctx, r.GetList, value.Obj(), nil)
				require.NoError(t, err)
				list, all := noteViews(t, c, r)
				require.Equal(t, before, list)
				require.Equal(t, before, all)

				s.Hold(true)
				api.fail.Store(fail)
				var body any
				if tc.body != "" {
					body = value.MustParse(tc.body)
				}
				done := make(chan error, 1)
				go func() {
					_, err := c.Fetch(ctx, ep, value.MustParse(tc.params), body)
					done <- err
				}()
				held := heldOrDone(t, s, done)
				assert.Equal(t, tc.request, held.Method+" "+held.Path, "the request went out")
				list, all = noteViews(t, c, r)
				assert.Equal(t, tc.list, list, "the list before the server answers")
				assert.Equal(t, tc.all, all, "every note before the server answers")
				assert.Equal(t, 1, c.PendingOptimistic())

				held.Release(t)
				err = testkit.Wait(t, done, "the mutation")
				list, all = noteViews(t, c, r)
				if fail {
					var ne *rest.NetworkError
					require.ErrorAs(t, err, &ne)
					assert.Equal(t, 500, ne.Status)
					assert.Equal(t, before, list, "the list is as it was")
					assert.Equal(t, before, all, "every note is as it was")
				} else {
					require.NoError(t, err)
					assert.Equal(t, tc.savedList, list, "the list once the server answered")
					assert.Equal(t, tc.savedAll, all, "every note once the server answered")
				}
				assert.Equal(t, 0, c.PendingOptimistic())
				assert.Equal(t, 1, s.Count("GET /notes"), "nothing refetched")
			})
		}
	}
}

// heldOrDone waits for the next request held at s, and fails the test at
// once when the call that should send it ends first (done), with the error
// that stopped it before it went out.
func heldOrDone(t *testing.T, s *heldServer, done <-chan error) *heldRequest {
	t.Helper()
	select {
	case h := <-s.arrived:
		return h
	case err := <-done:
		t.Fatalf("the call ended before its request reached the server: %v", err)
	case <-time.After(testkit.WaitLimit):
		t.Fatal("no request arrived at the server")
	}
	return nil
}

// collectionEndpoint returns the endpoint op derives from a resource's
// getList.
func collectionEndpoint(op func(*rest.Endpoint) (*rest.Endpoint, error)) func(t *testing.T, r *rest.Resource) *rest.Endpoint {
	return func(t *testing.T, r *rest.Resource) *rest.Endpoint {
		ep, err := op(r.GetList)
		require.NoError(t, err)
		return ep
	}
}

// TestResourceOptimisticPartialUpdateOfUncachedRecord: with no stored
// record to merge the body into, partialUpdate applies nothing, as
// data-client's aborts, and its request still goes out.
func TestResourceOptimisticPartialUpdateOfUncachedRecord(t *testing.T) {
	s, _ := noteServer(t)
	r := noteResource(t, s, rest.ResourceOptions{Optimistic: true})
	c := controller.New(controller.Options{})
	s.Hold(true)
	done := make(chan error, 1)
	go func() {
		_, err := c.Fetch(context.Background(), r.PartialUpdate, value.MustParse(`{"id":"2"}`), value.MustParse(`{"title":"patched"}`))
		done <- err
	}()
	held := heldOrDone(t, s, done)
	assert.Equal(t, 0, c.PendingOptimistic(), "nothing applied")
	assert.True(t, c.GetResponse(r.Get, value.MustParse(`{"id":"2"}`)).Data.IsUndefined())
	held.Release(t)
	require.NoError(t, testkit.Wait(t, done, "the partial update"))
	assert.Equal(t, "2:patched:t2", showNotes(value.Arr(c.GetResponse(r.Get, value.MustParse(`{"id":"2"}`)).Data)))
}

// TestResourceNotOptimistic: without the option no mutation applies
// anything before the server answers.
func TestResourceNotOptimistic(t *testing.T) {
	s, _ := noteServer(t)
	r := noteResource(t, s, rest.ResourceOptions{})
	for _, ep := range []*rest.Endpoint{r.Get, r.GetList, r.Create, r.Update, r.PartialUpdate, r.Delete} {
		assert.Nil(t, ep.Spec().GetOptimisticResponse, ep.Name())
	}
}

// TestGetNeverRunsOptimisticResponse: getOptimisticResponse is for
// mutations. A resource whose shared options carry one (as
// resource({getOptimisticResponse}) or an extend of every endpoint gives
// getList and get) reads its lists and records as if it had none; its
// mutations run it.
func TestGetNeverRunsOptimisticResponse(t *testing.T) {
	s, _ := noteServer(t)
	var calls atomic.Int64
	r := noteResource(t, s, rest.ResourceOptions{Options: rest.Options{
		GetOptimisticResponse: func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
			calls.Add(1)
			b, _ := body.(value.Value)
			return schema.ShallowMerge(params, b), nil
		},
	}})
	c := controller.New(controller.Options{})
	ctx := context.Background()
	list, err := c.Fetch(ctx, r.GetList, value.Obj(), nil)
	require.NoError(t, err)
	assert.Equal(t, "1:one:t1 2:two:t2 3:three:t3", showNotes(list))
	one, err := c.Suspense(ctx, r.Get, value.MustParse(`{"id":"1"}`))
	require.NoError(t, err)
	assert.Equal(t, "one", one.Get("title").Str())
	require.NoError(t, c.Invalidate(r.GetList, value.Obj()))
	_, err = c.Suspense(ctx, r.GetList, value.Obj())
	require.NoError(t, err)
	assert.Zero(t, calls.Load(), "no GET ran getOptimisticResponse")

	s.Hold(true)
	done := make(chan error, 1)
	go func() {
		_, err := c.Fetch(ctx, r.PartialUpdate, value.MustParse(`{"id":"1"}`), value.MustParse(`{"title":"patched"}`))
		done <- err
	}()
	held := heldOrDone(t, s, done)
	assert.Equal(t, int64(1), calls.Load(), "the mutation ran it")
	assert.Equal(t, "patched", c.GetResponse(r.Get, value.MustParse(`{"id":"1"}`)).Data.Get("title").Str())
	held.Release(t)
	require.NoError(t, testkit.Wait(t, done, "the partial update"))
}

// TestOptimisticRecordWithoutPK: an optimistic response whose record has
// no pk is stored under a temporary one and its request goes out; a
// server answer without a pk is still an error (and takes the optimistic
// record back).
func TestOptimisticRecordWithoutPK(t *testing.T) {
	s, api := noteServer(t)
	r := noteResource(t, s, rest.ResourceOptions{})
	create, err := r.Create.Extend(func(o *rest.Options) {
		o.GetOptimisticResponse = func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
			return body.(value.Value), nil
		}
	})
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	ctx := context.Background()

	stored := ""
	for _, noID := range []bool{false, true} {
		api.noID.Store(noID)
		s.Hold(true)
		done := make(chan error, 1)
		go func() {
			_, err := c.Fetch(ctx, create, value.Obj(), value.MustParse(`{"title":"draft"}`))
			done <- err
		}()
		held := heldOrDone(t, s, done)
		all, err := c.Get(schema.AllOf(note))
		require.NoError(t, err)
		assert.Equal(t, strings.TrimSpace(stored+" ?:draft:"), showNotes(all), "the record without a pk is applied")
		var temps []string
		for _, m := range c.State().Get("entities").Get("Note").Members() {
			if schema.IsTemporaryPK(m.Key) {
				temps = append(temps, m.Key)
			}
		}
		assert.Len(t, temps, 1, "stored under a temporary pk")
		held.Release(t)
		err = testkit.Wait(t, done, "the create")
		all, _ = c.Get(schema.AllOf(note))
		if noID {
			require.ErrorIs(t, err, schema.ErrNoPK, "a server answer without a pk fails")
			assert.Equal(t, "101:draft:", showNotes(all), "the optimistic record is gone")
		} else {
			require.NoError(t, err)
			assert.Equal(t, "101:draft:", showNotes(all), "the server's record replaced it")
		}
		assert.Equal(t, 0, c.PendingOptimistic())
		stored = "101:draft:"
	}
	assert.Equal(t, 2, s.Count("POST /notes"))
}

// TestOptimisticSnapshotGet: snap.Get reads the cache, pending optimistic
// updates included, as data-client's snap.get.
func TestOptimisticSnapshotGet(t *testing.T) {
	s, _ := noteServer(t)
	r := noteResource(t, s, rest.ResourceOptions{})
	var seen []string
	rename, err := r.PartialUpdate.Extend(func(o *rest.Options) {
		o.GetOptimisticResponse = func(snap endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
			stored, err := snap.Get(note, params)
			if err != nil {
				return value.Undef, err
			}
			if stored.IsUndefined() {
				return value.Undef, endpoint.ErrAbortOptimistic
			}
			seen = append(seen, stored.Get("title").Str())
			return stored.With("title", value.Str(stored.Get("title").Str()+"!")), nil
		}
	})
	require.NoError(t, err)
	c := controller.New(controller.Options{})
	ctx := context.Background()
	_, err = c.Fetch(ctx, r.GetList, value.Obj(), nil)
	require.NoError(t, err)
	s.Hold(true)
	done := make(chan error, 2)
	for range 2 {
		go func() {
			_, err := c.Fetch(ctx, rename, value.MustParse(`{"id":"1"}`), value.Obj())
			done <- err
		}()
		s.Next()
	}
	assert.Equal(t, []string{"one", "one!"}, seen, "the second saw the first, pending")
	assert.Equal(t, "one!!", c.GetResponse(r.Get, value.MustParse(`{"id":"1"}`)).Data.Get("title").Str())
	s.Unhold()
	for range 2 {
		require.NoError(t, testkit.Wait(t, done, "a rename"))
	}
}
