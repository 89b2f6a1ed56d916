package integration

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture"
	"github.com/datafetch/datafetch/web/api"
)

// Bad input of spec section 8: each gives an error that names what was
// wrong and where, leaves the store as it was (but for the failed key's
// error), and the next normal request works.

// populate stores some data, so that "unchanged" means something.
func populate(t *testing.T, e *env) (comment, comments *rest.Endpoint) {
	t.Helper()
	comment = e.Endpoint(rest.Options{Name: "comment", Path: "/comments/:id", Schema: commentE})
	comments = e.Endpoint(rest.Options{Name: "comments", Path: "/comments", Schema: schema.ArrayOf(commentE)})
	e.Suspense(comment, id(1))
	e.Suspense(comments, obj(`{"postId":1}`))
	return comment, comments
}

func TestBadInput(t *testing.T) {
	closed := httptest.NewServer(nil)
	closedURL := closed.URL
	closed.Close()

	tests := []struct {
		name   string
		opts   rest.Options // URLPrefix defaults to the fixture server
		params value.Value
		// keyed is whether the request got as far as having a key, so the
		// key keeps the error in its meta.
		keyed bool
		// status is the NetworkError's; -1: not a NetworkError.
		status  int
		errName string
		want    []string // in the message, besides the endpoint name
		check   func(t *testing.T, err error)
	}{
		{
			name: "record with no pk", keyed: true, status: -1, errName: "Error",
			opts: rest.Options{Name: "noPK", Path: "/bad/nopk", Schema: commentE},
			want: []string{"/bad/nopk", "Comment", "primary key", `"id"`},
			check: func(t *testing.T, err error) {
				var se *schema.Error
				require.ErrorAs(t, err, &se)
				assert.Equal(t, "Comment", se.Schema)
				assert.Equal(t, "$", se.Path)
				assert.ErrorIs(t, err, schema.ErrNoPK)
			},
		},
		{
			name: "record where a list is expected", keyed: true, status: -1, errName: "Error",
			opts: rest.Options{Name: "wrongShape", Path: "/comments/:id", Schema: schema.ArrayOf(commentE)},
			want: []string{"/comments/2", "[Comment]", "expected an array, got object"},
		},
		{
			name: "record with no pk inside an envelope", keyed: true, status: -1, errName: "Error",
			opts: rest.Options{Name: "noPKNested", Path: "/bad/nopk",
				Schema: schema.ObjectOf(schema.Nested("data", schema.ArrayOf(commentE))),
				Process: func(v, _ value.Value) (value.Value, error) {
					return value.Obj(value.M("data", value.Arr(v))), nil
				}},
			want: []string{"/bad/nopk", "Comment at $.data[0]", "primary key"},
		},
		{
			name: "HTML with status 200", keyed: true, status: 400, errName: "NetworkError",
			opts: rest.Options{Name: "html", Path: "/bad/html", Schema: commentE},
			want: []string{"GET", "/bad/html", "400", "invalid JSON", "DOCTYPE"},
			check: func(t *testing.T, err error) {
				var se *value.SyntaxError
				assert.ErrorAs(t, err, &se)
			},
		},
		{
			name: "truncated JSON", keyed: true, status: 400, errName: "NetworkError",
			opts: rest.Options{Name: "truncated", Path: "/bad/truncated", Schema: commentE},
			want: []string{"/bad/truncated", "400", "invalid JSON at offset"},
			check: func(t *testing.T, err error) {
				var se *value.SyntaxError
				require.ErrorAs(t, err, &se)
				assert.Positive(t, se.Offset)
			},
		},
		{
			name: "header-token list with a body that is not JSON", keyed: true, status: 400, errName: "NetworkError",
			opts: rest.Options{Name: "linkedHTML", Path: "/bad/html", Schema: linkSchema(), Fetch: linkFetch},
			want: []string{"/bad/html", "400"},
		},
		{
			name: "params missing a path token", keyed: false, status: -1, errName: "Error",
			opts:   rest.Options{Name: "needsID", Path: "/comments/:id", Schema: commentE},
			params: obj(`{"postId":1}`),
			want:   []string{"missing path token :id", "/comments/:id"},
		},
		{
			name: "network failure", keyed: true, status: 0, errName: "NetworkError",
			opts: rest.Options{Name: "offline", URLPrefix: closedURL, Path: "/comments/:id", Schema: commentE},
			want: []string{closedURL + "/comments/2", "network error"},
		},
		{
			name: "404 with a JSON body", keyed: true, status: 404, errName: "NetworkError",
			opts:   rest.Options{Name: "missing", Path: "/comments/:id", Schema: commentE},
			params: id(999),
			want:   []string{"/comments/999", "404 Not Found", "comment 999 not found"},
			check: func(t *testing.T, err error) {
				ne := err.(*rest.NetworkError)
				assert.Equal(t, "comment 999 not found", ne.Body.Get("error").Str())
				assert.Equal(t, "Not Found", ne.StatusText)
				require.NotNil(t, ne.Response)
				assert.Equal(t, 404, ne.Response.Status)
			},
		},
		{
			name: "503 with a JSON body", keyed: true, status: 503, errName: "NetworkError",
			opts: rest.Options{Name: "unavailable", Path: "/bad/status/503", Schema: commentE},
			want: []string{"/bad/status/503", "503", "requested from /bad/status"},
		},
		{
			name: "connection closed mid-body", keyed: true, status: 0, errName: "NetworkError",
			opts: rest.Options{Name: "dropped", Path: "/bad/close", Schema: commentE},
			want: []string{"/bad/close", "network error", "EOF"},
		},
		{
			name: "endpoint timeout", keyed: true, status: 0, errName: "TimeoutError",
			opts: rest.Options{Name: "slow", Path: "/bad/hang", Schema: commentE, Timeout: 50 * time.Millisecond},
			want: []string{"/bad/hang", "timed out", "50ms"},
			check: func(t *testing.T, err error) {
				assert.ErrorIs(t, err, context.DeadlineExceeded)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, api.Options{}, controller.Options{})
			comment, comments := populate(t, e)
			ep := e.Endpoint(tt.opts)
			params := tt.params
			if params.IsUndefined() {
				params = id(2)
			}
			before := e.Ctrl.State()

			_, err := e.Ctrl.Suspense(context.Background(), ep, params)
			require.Error(t, err)
			msg := err.Error()
			assert.Contains(t, msg, tt.opts.Name, "the message names the endpoint")
			for _, w := range tt.want {
				assert.Contains(t, msg, w)
			}
			assert.Equal(t, tt.errName, rest.ErrorName(err), "%v", err)
			var ne *rest.NetworkError
			if tt.status >= 0 {
				require.ErrorAs(t, err, &ne)
				assert.Equal(t, tt.status, ne.Status)
				assert.Equal(t, tt.opts.Name, ne.Endpoint)
				assert.Equal(t, "GET", ne.Method)
				assert.NotEmpty(t, ne.URL)
			} else {
				assert.False(t, errors.As(err, &ne), "not a network error: %T", err)
			}
			if tt.check != nil {
				tt.check(t, err)
			}

			// The store is unchanged but for the failed key's error.
			after := e.Ctrl.State()
			if tt.keyed {
				key, kerr := ep.Key(params)
				require.NoError(t, kerr)
				assert.False(t, before.Get("meta").Has(key))
				assert.Equal(t, msg, after.Get("meta").Get(key).Get("error").Str())
				after = fixture.WithoutMeta(after, key)
				assert.Equal(t, endpoint.Missing, e.Ctrl.GetResponse(ep, params).ExpiryStatus)
				assert.Error(t, e.Ctrl.GetResponse(ep, params).Err)

				// Inside errorExpiryLength the error is kept: no request.
				counts := e.API.Counts()
				_, again := e.Ctrl.Suspense(context.Background(), ep, params)
				assert.EqualError(t, again, msg)
				assert.Equal(t, counts, e.API.Counts())
			} else {
				_, kerr := ep.Key(params)
				assert.EqualError(t, kerr, msg)
			}
			assert.True(t, value.Equal(before, after), "store changed:\nbefore %v\nafter  %v", before, after)

			// The next normal requests work.
			c2 := e.Suspense(comment, id(2))
			assert.EqualValues(t, 2, num(c2, "id"))
			list := e.Suspense(comments, obj(`{"postId":1}`))
			assert.Equal(t, seq(1, 5), ids(list))
			assert.Equal(t, 1, e.API.Count("GET /comments?postId=1"), "the populated list is still fresh")
		})
	}
}

// TestEmptyResponseWhereDataExpected: 204 (and an empty body) gives null, as
// the spec documents: the read succeeds with null and stores it.
func TestEmptyResponseWhereDataExpected(t *testing.T) {
	tests := []struct {
		name   string
		schema schema.Schema
	}{
		{"entity", commentE},
		{"list", schema.ArrayOf(commentE)},
		{"envelope", schema.ObjectOf(schema.Nested("data", commentE))},
		{"no schema", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, api.Options{}, controller.Options{})
			ep := e.Endpoint(rest.Options{Name: "empty", Path: "/bad/empty", Schema: tt.schema})
			v, err := e.Ctrl.Suspense(context.Background(), ep, value.Undef)
			require.NoError(t, err)
			assert.True(t, v.IsNull(), "got %v", v)
			r := e.Ctrl.GetResponse(ep, value.Undef)
			assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
			assert.True(t, r.Data.IsNull())
			e.Suspense(ep, value.Undef)
			assert.Equal(t, 1, e.API.Count("GET /bad/empty"), "null is a stored, fresh result")
		})
	}
}

// TestCancelledRead: a reader whose context ends gets an AbortError that
// names the request; the store is untouched, and other reads go on.
func TestCancelledRead(t *testing.T) {
	e := newEnv(t, api.Options{}, controller.Options{})
	comment, _ := populate(t, e)
	hang := e.Endpoint(rest.Options{Name: "hang", Path: "/bad/hang", Schema: commentE})
	before := e.Ctrl.State()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := e.Ctrl.Suspense(ctx, hang, value.Undef)
	require.Error(t, err)
	assert.Equal(t, "AbortError", rest.ErrorName(err))
	assert.ErrorIs(t, err, context.Canceled)
	assert.Contains(t, err.Error(), "hang", "the message names the endpoint")
	assert.Contains(t, err.Error(), "/bad/hang", "the message names the URL")
	assert.True(t, value.Equal(before, e.Ctrl.State()), "store unchanged")

	c2 := e.Suspense(comment, id(2))
	assert.EqualValues(t, 2, num(c2, "id"))
}

// TestSignalAbortsRequest: the endpoint's Signal aborts the request itself;
// the error is an AbortError kept for the key.
func TestSignalAbortsRequest(t *testing.T) {
	e := newEnv(t, api.Options{}, controller.Options{})
	comment, _ := populate(t, e)
	sig, abort := context.WithCancel(context.Background())
	hang := e.Endpoint(rest.Options{Name: "hang", Path: "/bad/hang", Schema: commentE, Signal: sig})
	before := e.Ctrl.State()
	time.AfterFunc(50*time.Millisecond, abort)

	_, err := e.Ctrl.Suspense(context.Background(), hang, value.Undef)
	require.Error(t, err)
	assert.Equal(t, "AbortError", rest.ErrorName(err))
	var ne *rest.NetworkError
	require.ErrorAs(t, err, &ne)
	assert.Equal(t, 0, ne.Status)
	assert.Contains(t, err.Error(), "hang: GET "+e.URL+"/bad/hang: request aborted")
	key, _ := hang.Key(value.Undef)
	assert.True(t, value.Equal(before, fixture.WithoutMeta(e.Ctrl.State(), key)))
	e.Suspense(comment, id(2))
}

func TestEntityWithoutKeyOrDefaults(t *testing.T) {
	tests := []struct {
		name   string
		entity *schema.Entity
		want   string
	}{
		{"no key", &schema.Entity{Defaults: obj(`{"id":null}`)}, "entity has no key"},
		{"no defaults", &schema.Entity{Key: "Thing"}, "entity Thing: defaults must be an object, got undefined"},
		{"defaults not an object", &schema.Entity{Key: "Thing", Defaults: obj(`[]`)}, "entity Thing: defaults must be an object, got array"},
		{"nil", nil, "entity is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, tt.entity.Validate(), tt.want)
			_, err := rest.NewResource(rest.ResourceOptions{URLPrefix: "http://x", Path: "/things/:id", Schema: tt.entity})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "/things/:id")
			assert.Contains(t, err.Error(), tt.want)
			_, err = rest.LegacyResource("http://x/thing/", tt.entity)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "http://x/thing/")
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
