package badinput

import (
	"context"
	"errors"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// badCase is one row of the matrix. A case either fails (the default) or is
// accepted, as docs/js-api.md documents for some odd input (a 204 reads as null).
type badCase struct {
	name string
	// opts make the endpoint; a relative Path is on the fixture server.
	opts rest.Options
	// params default to {"id": 2}.
	params value.Value
	// call runs the case; nil reads with Suspense.
	call func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error)

	// For failures: keyed says the request got as far as a key, which
	// then keeps the error in its meta; status is the *rest.NetworkError's
	// (-1: the error is no NetworkError); errName is rest.ErrorName's; want
	// are what the message must hold besides the endpoint's name (the URL
	// or the schema key, and what was wrong).
	keyed   bool
	status  int
	errName string
	want    []string
	// check runs last, with the error (failures) or the value (accepted).
	check func(t *testing.T, e *env, v value.Value, err error)

	accepted bool
}

// Shorthands for the common kinds of failure.
func parseFailure(want ...string) badCase {
	return badCase{keyed: true, status: 400, errName: "NetworkError", want: want}
}

func schemaFailure(want ...string) badCase {
	return badCase{keyed: true, status: -1, errName: "Error", want: want,
		check: func(t *testing.T, e *env, v value.Value, err error) {
			var se *schema.Error
			assert.ErrorAs(t, err, &se, "a *schema.Error names the schema and the path")
		}}
}

func callbackFailure(want ...string) badCase {
	return badCase{keyed: true, status: -1, errName: "Error", want: want}
}

func paramsFailure(want ...string) badCase {
	return badCase{keyed: false, status: -1, errName: "Error", want: want}
}

// with sets the name and endpoint of a case made by a shorthand.
func (c badCase) with(name string, o rest.Options, params value.Value) badCase {
	c.name, c.opts, c.params = name, o, params
	return c
}

func (c badCase) then(check func(t *testing.T, e *env, v value.Value, err error)) badCase {
	prev := c.check
	c.check = func(t *testing.T, e *env, v value.Value, err error) {
		if prev != nil {
			prev(t, e, v, err)
		}
		check(t, e, v, err)
	}
	return c
}

func accepted(name string, o rest.Options, params value.Value, check func(t *testing.T, e *env, v value.Value, err error)) badCase {
	return badCase{name: name, opts: o, params: params, accepted: true, check: check}
}

// hugeMB is the size of the huge-body cases.
const hugeMB = 50

func cases(closedURL string) []badCase {
	comment := func(name, path string) rest.Options {
		return rest.Options{Name: name, Path: path, Schema: commentE}
	}
	bodyEp := func(name string, s schema.Schema) rest.Options {
		return rest.Options{Name: name, Path: "/bad/body", Schema: s}
	}
	isNull := storedNull
	mutation := func(name string, o rest.Options) rest.Options {
		o.Name, o.Path, o.Method, o.Schema = name, "/articles/:id", "PATCH", articleE
		return o
	}
	fetchBody := func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error) {
		ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
		defer cancel()
		return e.Ctrl.Fetch(ctx, ep, params, obj(`{"title":"changed by the case"}`))
	}
	noRequest := func(method, path string) func(t *testing.T, e *env, v value.Value, err error) {
		return func(t *testing.T, e *env, v value.Value, err error) {
			assert.Zero(t, e.API.Count(method+" "+path), "no request was sent")
		}
	}
	articleUnchanged := func(t *testing.T, e *env, v value.Value, err error) {
		a := e.Ctrl.GetResponse(e.article, id("1")).Data
		assert.NotEqual(t, "changed by the case", text(a, "title"))
	}
	setResponse := func(data value.Value) func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error) {
		return func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error) {
			return value.Undef, e.Ctrl.SetResponse(ep, params, data)
		}
	}

	return []badCase{
		// ------------------------------------------------ bodies that are not JSON
		parseFailure("GET", "/bad/truncated", "400", "invalid JSON at offset").
			with("truncated JSON", comment("truncated", "/bad/truncated"), value.Undef).
			then(func(t *testing.T, e *env, v value.Value, err error) {
				var se *value.SyntaxError
				require.ErrorAs(t, err, &se)
				assert.Positive(t, se.Offset, "the offset of the error in the body")
			}),
		parseFailure("/bad/html", "400", "unexpected html response for schema Comment", "invalid JSON", "DOCTYPE").
			with("HTML error page with status 200", comment("html", "/bad/html"), value.Undef).
			then(func(t *testing.T, e *env, v value.Value, err error) {
				var se *value.SyntaxError
				assert.ErrorAs(t, err, &se)
			}),
		// The custom fetch of a header-token list; a body
		// that is not JSON is a NetworkError with status 400.
		parseFailure("/bad/html", "400").
			with("header-token list with a body that is not JSON", rest.Options{Name: "linkedHTML", Path: "/bad/html",
				Schema: schema.ObjectOf(schema.Nested("results", schema.ArrayOf(commentE)), schema.Default("link", value.Str(""))),
				Fetch:  linkFetch}, value.Undef),
		parseFailure("/bad/body", "400", "invalid JSON").
			with("invalid JSON: NaN literal", bodyEp("nanLiteral", commentE), body(`{"id":2,"score":NaN}`)),
		parseFailure("/bad/body", "400", "invalid JSON").
			with("invalid JSON: trailing garbage", bodyEp("trailing", commentE), body(`{"id":2} {"id":3}`)),
		parseFailure("/bad/body", "400", "invalid JSON").
			with("invalid JSON: single quotes", bodyEp("singleQuotes", commentE), body(`{'id':2}`)),
		parseFailure("/bad/body", "400", "invalid JSON", "undefined").
			with("invalid JSON: a bare word", bodyEp("bareWord", commentE), body(`undefined`)),
		// Text where a schema expects JSON: refused, in data-client's words.
		parseFailure("/bad/body", "400", "unexpected text/plain response for schema Comment", "invalid JSON", "OK").
			with("plain text with status 200", bodyEp("plainText", commentE),
				obj(`{"text":"OK","type":"text/plain"}`)),
		accepted("JSON after a UTF-8 byte-order mark", bodyEp("bom", commentE), obj(`{"text":"{\"id\":2,\"name\":\"bom\"}","bom":"1"}`),
			func(t *testing.T, e *env, v value.Value, err error) { assert.Equal(t, "bom", v.Get("name").Str()) }),

		// ------------------------------------------------ empty bodies (spec: null)
		accepted("204 where a record is expected", comment("empty", "/bad/empty"), value.Undef, isNull),
		accepted("204 where a list is expected", rest.Options{Name: "emptyList", Path: "/bad/empty", Schema: schema.ArrayOf(commentE)}, value.Undef, isNull),
		accepted("empty body with status 200", bodyEp("emptyBody", commentE), obj(`{}`), isNull),
		accepted("whitespace-only body", bodyEp("blank", commentE), body(" \n\t "), isNull),
		accepted("JSON null where a record is expected", bodyEp("jsonNull", commentE), body("null"), isNull),
		accepted("204 where an envelope object is expected", rest.Options{Name: "emptyEnvelope", Path: "/bad/empty",
			Schema: schema.ObjectOf(schema.Nested("data", commentE))}, value.Undef, isNull),
		accepted("204 from an endpoint without a schema", rest.Options{Name: "emptyNoSchema", Path: "/bad/empty"}, value.Undef, isNull),

		// ------------------------------------------------ shapes
		// A record where a list is expected is read as its values, as
		// data-client reads it (TestNormalizeLikeDataClient); text is an
		// error.
		schemaFailure("/bad/body", "[Comment]", "expected an array, got string").
			with("text where a list is expected", bodyEp("wantList", schema.ArrayOf(commentE)), body(`"comments"`)),
		schemaFailure("/comments?postId=1", "Comment at $", "expected a record (object), got array").
			with("list where a record is expected", rest.Options{Name: "wantRecord", Path: "/comments", Schema: commentE}, obj(`{"postId":1}`)),
		schemaFailure("/comments?postId=1", "expected an object, got array").
			with("list where an envelope object is expected", rest.Options{Name: "wantEnvelope", Path: "/comments",
				Schema: schema.ObjectOf(schema.Nested("data", schema.ArrayOf(commentE)))}, obj(`{"postId":1}`)),
		schemaFailure("/bad/body", "Comment at $", "expected a record (object), got string").
			with("string where a record is expected", bodyEp("stringBody", commentE), body(`"hello"`)),
		schemaFailure("/bad/body", "Comment at $", "expected a record (object), got number").
			with("number where a record is expected", bodyEp("numberBody", commentE), body(`42`)),
		schemaFailure("/bad/body", "Comment at $", "expected a record (object), got boolean").
			with("boolean where a record is expected", bodyEp("boolBody", commentE), body(`true`)),
		// A union value no member takes is kept as it is, as data-client
		// keeps it (TestNormalizeLikeDataClient); one that is not an object
		// is an error.
		schemaFailure("/bad/body", "union at $", "expected a record (object), got array").
			with("list where a union record is expected", bodyEp("unionList", unionS), body(`[{"type":"video","id":1}]`)),
		schemaFailure("/bad/body", "values(Comment) at $", "expected an object, got array").
			with("list where a map is expected", bodyEp("wantMap", schema.ValuesOf(commentE)), body(`[{"id":1}]`)),

		// ------------------------------------------------ fields
		schemaFailure("/bad/body", "User at $.author", "primary key").
			with("nested entity field of the wrong type", bodyEp("authorObjectPK", articleE), body(`{"id":"1","author":{"id":{"a":1}}}`)),
		schemaFailure("/bad/body", "User at $.author", "got array").
			with("nested entity field that is a list", bodyEp("authorList", articleE), body(`{"id":"1","author":[1,2]}`)),
		schemaFailure("/bad/body", "Date at $.createdAt", `invalid date "yesterday"`).
			with("date field that is not a date", bodyEp("badDate", articleE), body(`{"id":"1","createdAt":"yesterday"}`)),
		schemaFailure("/bad/body", "Date at $.createdAt", "got object").
			with("date field of the wrong type", bodyEp("dateObject", articleE), body(`{"id":"1","createdAt":{"year":2024}}`)),
		schemaFailure("/bad/body", "User at $.author", "no primary key").
			with("nested record without a pk", bodyEp("authorNoPK", articleE), body(`{"id":"1","author":{"name":"anonymous"}}`)),

		// ------------------------------------------------ primary keys
		schemaFailure("/bad/nopk", "Comment at $", "no primary key", `"id"`).
			with("record with no pk", comment("noPK", "/bad/nopk"), value.Undef).
			then(func(t *testing.T, e *env, v value.Value, err error) {
				assert.ErrorIs(t, err, schema.ErrNoPK)
				var se *schema.Error
				require.ErrorAs(t, err, &se)
				assert.Equal(t, "Comment", se.Schema)
				assert.Equal(t, "$", se.Path)
			}),
		schemaFailure("/bad/nopk", "Comment at $.data[0]", "primary key").
			with("record with no pk inside an envelope", rest.Options{Name: "noPKNested", Path: "/bad/nopk",
				Schema: schema.ObjectOf(schema.Nested("data", schema.ArrayOf(commentE))),
				Process: func(v, _ value.Value) (value.Value, error) {
					return value.Obj(value.M("data", value.Arr(v))), nil
				}}, value.Undef),
		schemaFailure("/bad/body", "Comment at $", "no primary key").
			with("null pk", bodyEp("nullPK", commentE), body(`{"id":null,"name":"x"}`)),
		schemaFailure("/bad/body", "Comment at $", `primary key field "id" is object`).
			with("object pk", bodyEp("objectPK", commentE), body(`{"id":{"n":2}}`)),
		schemaFailure("/bad/body", "Comment at $", `primary key field "id" is array`).
			with("list pk", bodyEp("listPK", commentE), body(`{"id":[2]}`)),
		schemaFailure("/bad/body", "Comment at $", "no primary key").
			with("empty-string pk", bodyEp("emptyPK", commentE), body(`{"id":"","name":"x"}`)),
		schemaFailure("/bad/body", "Comment at $[2]", "is object").
			with("wrong pk deep in a list", bodyEp("lateBadPK", schema.ArrayOf(commentE)), body(`[{"id":1,"name":"changed"},{"id":70},{"id":{}}]`)).
			then(func(t *testing.T, e *env, v value.Value, err error) {
				assert.False(t, e.Ctrl.State().Get("entities").Get("Comment").Has("70"), "no record of the failed response is stored")
			}),
		accepted("duplicate pks in one response", rest.Options{Name: "dupes", Path: "/bad/dupes", Schema: schema.ArrayOf(commentE)}, value.Undef,
			func(t *testing.T, e *env, v value.Value, err error) {
				require.Equal(t, 3, v.Len())
				first, last := v.Elems()[0], v.Elems()[2]
				assert.True(t, value.Same(first, last), "one entity, one value")
				assert.Equal(t, "second copy", first.Get("name").Str(), "the later record wins")
				assert.Equal(t, "a@example.com", first.Get("email").Str(), "fields only the first had are kept")
			}),
		accepted("duplicate keys in one record", bodyEp("dupeKeys", commentE), body(`{"id":2,"name":"a","name":"b"}`),
			func(t *testing.T, e *env, v value.Value, err error) {
				assert.Equal(t, "b", v.Get("name").Str(), "the last one wins, as in JSON.parse")
			}),

		// ------------------------------------------------ size and depth
		parseFailure("/bad/deep", "400", "nesting deeper than 1000 levels").
			with("10,000 levels of nested arrays", comment("deep", "/bad/deep"), value.Undef),
		accepted("a chain of 10,000 references", rest.Options{Name: "chain", Path: "/bad/chain", Schema: schema.ArrayOf(userE)}, value.Undef,
			func(t *testing.T, e *env, v value.Value, err error) {
				require.Equal(t, 10000, v.Len())
				depth, u := 0, v.Elems()[0]
				for ; u.Get("bestFriend").Kind() == value.Object; u = u.Get("bestFriend") {
					depth++
				}
				assert.Equal(t, schema.MaxDepth, depth, "references are followed schema.MaxDepth levels deep")
				assert.Equal(t, "130", u.Get("bestFriend").Str(), "then the record shows the key of the next")
				again := e.Ctrl.GetResponse(e.Endpoint(rest.Options{Name: "chain", Path: "/bad/chain", Schema: schema.ArrayOf(userE)}), value.Undef)
				assert.True(t, value.Same(v, again.Data), "a re-read returns the stored result")
			}),
		accepted("users that all reference each other", rest.Options{Name: "cyclic", Path: "/bad/cyclic", Schema: schema.ArrayOf(userE)}, obj(`{"n":200}`),
			func(t *testing.T, e *env, v value.Value, err error) {
				require.Equal(t, 200, v.Len())
				for _, u := range v.Elems() {
					assert.Equal(t, 199, u.Get("friends").Len())
					for _, f := range u.Get("friends").Elems() {
						require.Equal(t, value.Object, f.Kind(), "every friend reads as a record")
					}
				}
				assert.True(t, value.Same(v.Elems()[1], v.Elems()[0].Get("friends").Elems()[0]),
					"an entity reads as one value wherever it appears")
				for i, u := range v.Elems() {
					assert.Equal(t, text(u, "id"), text(v.Elems()[(i+199)%200].Get("bestFriend"), "id"), "best friends go round")
				}
				assert.Less(t, distinctObjects(v), 4*200*200, "the read is as large as the data, not as the paths through it")
			}),
		accepted("a 50 MB list", comment("huge", "/bad/huge"), value.Obj(value.M("mb", value.Int(hugeMB))),
			func(t *testing.T, e *env, v value.Value, err error) {
				assert.Greater(t, v.Len(), hugeMB*1000)
				assert.Equal(t, "1", text(v.Elems()[0], "id"))
			}).withSchema(schema.ArrayOf(commentE)),
		schemaFailure("/bad/huge", "Comment at $[", "no primary key").
			with("a 50 MB list whose last record has no pk", rest.Options{Name: "hugeNoPK", Path: "/bad/huge", Schema: schema.ArrayOf(commentE)},
				obj(`{"mb":50,"tail":"nopk"}`)),
		parseFailure("/bad/huge", "400", "invalid JSON").
			with("a 50 MB list cut short", rest.Options{Name: "hugeTruncated", Path: "/bad/huge", Schema: schema.ArrayOf(commentE)},
				obj(`{"mb":50,"tail":"truncated"}`)),

		// ------------------------------------------------ error statuses and the network
		{name: "404 with a JSON error body", opts: comment("missing", "/comments/:id"), params: id(999),
			keyed: true, status: 404, errName: "NetworkError", want: []string{"/comments/999", "404 Not Found", "comment 999 not found"},
			check: func(t *testing.T, e *env, v value.Value, err error) {
				var ne *rest.NetworkError
				require.ErrorAs(t, err, &ne)
				assert.Equal(t, "comment 999 not found", ne.Body.Get("error").Str())
				assert.Equal(t, "Not Found", ne.StatusText)
				require.NotNil(t, ne.Response)
				assert.Equal(t, 404, ne.Response.Status)
			}},
		{name: "500 with an HTML body", opts: bodyEp("serverError", commentE),
			params: obj(`{"status":500,"type":"text/html","text":"<html><body><h1>Internal Server Error</h1></body></html>"}`),
			keyed:  true, status: 500, errName: "NetworkError", want: []string{"/bad/body", "500 Internal Server Error", "Internal Server Error</h1>"}},
		{name: "503 with a JSON error body", opts: comment("unavailable", "/bad/status/503"), params: value.Undef,
			keyed: true, status: 503, errName: "NetworkError", want: []string{"/bad/status/503", "503", "requested from /bad/status"}},
		{name: "server closes the connection mid-body", opts: comment("dropped", "/bad/close"), params: value.Undef,
			keyed: true, status: 0, errName: "NetworkError", want: []string{"/bad/close", "network error", "EOF"}},
		{name: "server down", opts: rest.Options{Name: "offline", URLPrefix: closedURL, Path: "/comments/:id", Schema: commentE},
			keyed: true, status: 0, errName: "NetworkError", want: []string{closedURL + "/comments/2", "network error"}},
		{name: "slower than the endpoint timeout", opts: rest.Options{Name: "slow", Path: "/bad/slow", Schema: commentE, Timeout: 100 * time.Millisecond},
			params: obj(`{"ms":600000}`), keyed: true, status: 0, errName: "TimeoutError", want: []string{"/bad/slow?ms=600000", "timed out", "100ms"},
			check: func(t *testing.T, e *env, v value.Value, err error) { assert.ErrorIs(t, err, context.DeadlineExceeded) }},
		// The server never answers: only the timeout can end the request.
		{name: "a server that never answers, with a timeout", opts: rest.Options{Name: "hangs", Path: "/bad/hang", Schema: commentE, Timeout: 50 * time.Millisecond},
			params: value.Undef, keyed: true, status: 0, errName: "TimeoutError", want: []string{"/bad/hang", "timed out", "50ms"},
			check: func(t *testing.T, e *env, v value.Value, err error) { assert.ErrorIs(t, err, context.DeadlineExceeded) }},
		{name: "a fetch option that never resolves, with a timeout",
			opts: rest.Options{Name: "neverResolves", Path: "/comments/:id", Schema: commentE, Timeout: 100 * time.Millisecond,
				Fetch: func(ctx context.Context, _ *rest.Endpoint, _ value.Value, _ any) (value.Value, error) {
					<-ctx.Done() // a fetch that never answers, but honours its context
					return value.Undef, ctx.Err()
				}},
			keyed: true, status: 0, errName: "TimeoutError", want: []string{"/comments/2", "timed out", "100ms"}},

		// ------------------------------------------------ params
		paramsFailure("missing path token :id", "/comments/:id").
			with("params missing a path token", comment("needsID", "/comments/:id"), obj(`{"postId":1}`)),
		paramsFailure("missing path token :id", "/comments/:id").
			with("path token that is null", comment("nullID", "/comments/:id"), obj(`{"id":null}`)),
		paramsFailure("missing path token :id").
			with("NaN where a path token is expected", comment("nanID", "/comments/:id"), value.Obj(value.M("id", value.Num(math.NaN())))),
		paramsFailure("path token :id", "must be a string, number or boolean, got object").
			with("path token that is an object", comment("objectID", "/comments/:id"), obj(`{"id":{"n":2}}`)),
		paramsFailure(`query param "filter"`, "object").
			with("query param that is an object", rest.Options{Name: "objectQuery", Path: "/comments", Schema: schema.ArrayOf(commentE)}, obj(`{"filter":{"postId":1}}`)),
		paramsFailure("params must be an object, got array").
			with("params that are a list", comment("listParams", "/comments/:id"), obj(`[2]`)),
		{name: "path token needing escaping", opts: comment("escaped", "/comments/:id"), params: id("1/../2?x=#y %"),
			keyed: true, status: 404, errName: "NetworkError",
			want: []string{"/comments/1%2F..%2F2%3Fx%3D%23y%20%25", "404", "comment 1/../2?x=#y % not found"}},
		accepted("unicode and emoji in params", comment("unicode", "/comments/:id"), obj(`{"id":2,"q":"é 😀 &=?"}`),
			func(t *testing.T, e *env, v value.Value, err error) {
				assert.Equal(t, "2", text(v, "id"))
				assert.Equal(t, 1, e.API.Count("GET /comments/2?q=%C3%A9+%F0%9F%98%80+%26%3D%3F"), "%v", e.API.Counts())
			}),

		// ------------------------------------------------ callbacks
		callbackFailure("process: bad record").
			with("process throws", rest.Options{Name: "processFails", Path: "/comments/:id", Schema: commentE,
				Process: func(value.Value, value.Value) (value.Value, error) { return value.Undef, errors.New("bad record") }}, id(2)),
		callbackFailure("Comment at $", "expected a record (object), got string").
			with("process returns the wrong type", rest.Options{Name: "processString", Path: "/comments/:id", Schema: commentE,
				Process: func(value.Value, value.Value) (value.Value, error) { return value.Str("oops"), nil }}, id(2)),
		callbackFailure("response is undefined").
			with("process returns undefined", rest.Options{Name: "processUndefined", Path: "/comments/:id", Schema: commentE,
				Process: func(value.Value, value.Value) (value.Value, error) { return value.Undef, nil }}, id(2)),
		callbackFailure("internal error", "process exploded").
			with("process fails unexpectedly", rest.Options{Name: "processPanics", Path: "/comments/:id", Schema: commentE,
				Process: func(value.Value, value.Value) (value.Value, error) { panic("process exploded") }}, id(2)),
		callbackFailure("getHeaders: no token").
			with("getHeaders throws", rest.Options{Name: "headersFail", Path: "/comments/:id", Schema: commentE,
				GetHeaders: func(context.Context, rest.Header) (rest.Header, error) { return nil, errors.New("no token") }}, id(2)).
			then(noRequest("GET", "/comments/2")),
		callbackFailure("fetch: offline").
			with("fetch option throws", rest.Options{Name: "fetchFails", Path: "/comments/:id", Schema: commentE,
				Fetch: func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
					return value.Undef, errors.New("offline")
				}}, id(2)),
		callbackFailure("Comment at $", "expected a record (object), got number").
			with("fetch option returns the wrong type", rest.Options{Name: "fetchNumber", Path: "/comments/:id", Schema: commentE,
				Fetch: func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) {
					return value.Int(42), nil
				}}, id(2)),
		callbackFailure("response is undefined").
			with("fetch option returns undefined", rest.Options{Name: "fetchUndefined", Path: "/comments/:id", Schema: commentE,
				Fetch: func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) { return value.Undef, nil }}, id(2)),
		callbackFailure("internal error", "fetch exploded").
			with("fetch option fails unexpectedly", rest.Options{Name: "fetchPanics", Path: "/comments/:id", Schema: commentE,
				Fetch: func(context.Context, *rest.Endpoint, value.Value, any) (value.Value, error) { panic("fetch exploded") }}, id(2)),
		callbackFailure("GET", "/comments/2", "parseResponse: unreadable").
			with("parseResponse throws", rest.Options{Name: "parseFails", Path: "/comments/:id", Schema: commentE,
				ParseResponse: func(context.Context, *rest.Response) (value.Value, error) {
					return value.Undef, errors.New("unreadable")
				}}, id(2)),
		callbackFailure("PATCH", "/articles/1", "update: no list").
			with("update throws", mutation("updateFails", rest.Options{
				Update: func(value.Value, value.Value) (map[string]func(value.Value) value.Value, error) {
					return nil, errors.New("no list")
				}}), id("1")).
			withCall(fetchBody).then(articleUnchanged),
		callbackFailure("internal error", "update exploded").
			with("update function throws", mutation("updateFnPanics", rest.Options{
				Update: func(value.Value, value.Value) (map[string]func(value.Value) value.Value, error) {
					return map[string]func(value.Value) value.Value{
						"articles GET " + "{{url}}/articles": func(value.Value) value.Value { panic("update exploded") },
					}, nil
				}}), id("1")).
			withCall(fetchBody).then(articleUnchanged),
		callbackFailure("PATCH", "/articles/1", "getOptimisticResponse: not now").
			with("getOptimisticResponse throws", mutation("optimisticFails", rest.Options{
				GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) {
					return value.Undef, errors.New("not now")
				}}), id("1")).
			withCall(fetchBody).then(noRequest("PATCH", "/articles/1")),
		callbackFailure("optimistic response", "Article at $", "expected a record (object), got string").
			with("getOptimisticResponse returns the wrong type", mutation("optimisticString", rest.Options{
				GetOptimisticResponse: func(endpoint.Snapshot, value.Value, any) (value.Value, error) { return value.Str("soon"), nil }}), id("1")).
			withCall(fetchBody).then(noRequest("PATCH", "/articles/1")),
		callbackFailure("internal error", "merge: boom").
			with("entity merge throws halfway through a response", bodyEp("mergeFails", schema.ArrayOf(commentBoom)),
				body(`[{"id":1,"name":"changed"},{"id":7,"name":"boom"}]`)).
			then(func(t *testing.T, e *env, v value.Value, err error) {
				c := e.Ctrl.GetResponse(e.comment, id(1)).Data
				assert.NotEqual(t, "changed", c.Get("name").Str(), "the record merged before the failure is rolled back")
			}),
		callbackFailure("Comment at $[0]", "pk failed").
			with("pk function throws", bodyEp("pkFails", schema.ArrayOf(&schema.Entity{Key: "Comment", Defaults: commentE.Defaults,
				PKFunc: func(value.Value, value.Value, string, value.Value) (string, bool, error) {
					return "", false, errors.New("pk failed")
				}})),
				body(`[{"id":1}]`)),
		{name: "setResponse with data of the wrong shape", opts: rest.Options{Name: "setWrongShape", Path: "/comments", Schema: schema.ArrayOf(commentE)},
			params: obj(`{"postId":9}`), call: setResponse(value.Str("comments")),
			status: -1, errName: "Error", want: []string{"comments?postId=9", "[Comment]", "expected an array, got string"}},
		{name: "setResponse with undefined data", opts: comment("setUndefined", "/comments/:id"),
			call:   setResponse(value.Undef),
			status: -1, errName: "Error", want: []string{"/comments/2", "data is undefined"}},
	}
}

// storedNull checks an accepted empty answer: the read succeeds with null,
// stored as a fresh result that the next read gets without a request.
func storedNull(t *testing.T, e *env, v value.Value, err error) {
	assert.True(t, v.IsNull(), "got %v", v)
	ep := e.Endpoint(e.caseOpts)
	r := e.Ctrl.GetResponse(ep, e.caseParams)
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.True(t, r.Data.IsNull(), "stored: %v", r.Data)
	counts := e.API.Counts()
	assert.True(t, e.Suspense(ep, e.caseParams).IsNull())
	assert.Equal(t, counts, e.API.Counts(), "null is a stored, fresh result")
}

// linkFetch is the custom fetch of a header-token list: the results of
// the body and the Link header, as one object.
func linkFetch(ctx context.Context, ep *rest.Endpoint, params value.Value, body any) (value.Value, error) {
	resp, err := ep.Send(ctx, params, body)
	if err != nil {
		return value.Undef, err
	}
	results, err := ep.DefaultParseResponse(resp)
	if err != nil {
		return value.Undef, err
	}
	return value.Obj(value.M("link", value.Str(resp.Header.Get("Link"))), value.M("results", results)), nil
}

// commentBoom is a Comment whose merge fails on a record named "boom", as
// a JavaScript merge that throws does.
var commentBoom = &schema.Entity{Key: "Comment", Defaults: commentE.Defaults,
	Merge: func(a, b value.Value) value.Value {
		if b.Get("name").Str() == "boom" {
			panic(errors.New("merge: boom"))
		}
		return schema.ShallowMerge(a, b)
	}}

func (c badCase) withCall(call func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error)) badCase {
	c.call = call
	return c
}

func (c badCase) withSchema(s schema.Schema) badCase {
	c.opts.Schema = s
	return c
}

// distinctObjects counts the distinct arrays and objects in v: a value
// shared at many places counts once, as the JavaScript bridge sends it once.
func distinctObjects(v value.Value) int {
	seen := map[uintptr]bool{}
	var walk func(v value.Value)
	walk = func(v value.Value) {
		id := value.Identity(v)
		if id == 0 || seen[id] {
			return
		}
		seen[id] = true
		for _, el := range v.Elems() {
			walk(el)
		}
		for _, m := range v.Members() {
			walk(m.Value)
		}
	}
	walk(v)
	return len(seen)
}

func TestBadInput(t *testing.T) {
	closed := httptest.NewServer(nil)
	closedURL := closed.URL
	closed.Close()

	all := cases(closedURL)
	t.Logf("%d cases", len(all))
	require.GreaterOrEqual(t, len(all), 40)
	seen := map[string]bool{}
	for _, c := range all {
		require.False(t, seen[c.name], "two cases named %q", c.name)
		seen[c.name] = true
	}
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.populate()
			// Keys of other endpoints that options refer to.
			for _, u := range []*func(value.Value, value.Value) (map[string]func(value.Value) value.Value, error){&c.opts.Update} {
				if *u != nil {
					inner := *u
					*u = func(pks, params value.Value) (map[string]func(value.Value) value.Value, error) {
						m, err := inner(pks, params)
						out := map[string]func(value.Value) value.Value{}
						for k, f := range m {
							out[strings.ReplaceAll(k, "{{url}}", e.URL)] = f
						}
						return out, err
					}
				}
			}
			ep := e.Endpoint(c.opts)
			params := c.params
			if params.IsUndefined() && c.opts.Path == "/comments/:id" {
				params = id(2)
			}
			e.caseOpts, e.caseParams = c.opts, params
			call := c.call
			if call == nil {
				call = func(e *env, ep *rest.Endpoint, params value.Value) (value.Value, error) {
					ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
					defer cancel()
					return e.Ctrl.Suspense(ctx, ep, params)
				}
			}
			before := e.Ctrl.State()

			v, err := call(e, ep, params)

			if c.accepted {
				require.NoError(t, err)
				if c.check != nil {
					c.check(t, e, v, err)
				}
			} else {
				require.Error(t, err)
				msg := err.Error()
				assert.Contains(t, msg, c.opts.Name, "the message names the endpoint")
				for _, w := range c.want {
					assert.Contains(t, msg, w)
				}
				assert.Less(t, len(msg), 1000, "the message is short: %.300s…", msg)
				assert.Equal(t, c.errName, rest.ErrorName(err), "%v", err)
				var ne *rest.NetworkError
				if c.status >= 0 {
					require.ErrorAs(t, err, &ne)
					assert.Equal(t, c.status, ne.Status)
					assert.Equal(t, c.opts.Name, ne.Endpoint)
					assert.Equal(t, ep.Method(), ne.Method)
					assert.NotEmpty(t, ne.URL)
				} else {
					assert.False(t, errors.As(err, &ne), "not a network error: %T", err)
				}

				// The store is exactly as before, but for the failed key's
				// error, which a read inside errorExpiryLength gets again.
				after := e.Ctrl.State()
				if c.keyed {
					key, kerr := ep.Key(params)
					require.NoError(t, kerr)
					assert.False(t, before.Get("meta").Has(key), "no meta for the key before the case")
					assert.Equal(t, msg, after.Get("meta").Get(key).Get("error").Str())
					after = fixture.WithoutMeta(after, key)
					r := e.Ctrl.GetResponse(ep, params)
					assert.Error(t, r.Err)
					assert.Equal(t, endpoint.Missing, r.ExpiryStatus)
					if c.call == nil {
						// Inside errorExpiryLength the error is kept: a read
						// gets it again without a request.
						counts := e.API.Counts()
						_, again := e.Ctrl.Suspense(context.Background(), ep, params)
						assert.EqualError(t, again, msg)
						assert.Equal(t, counts, e.API.Counts(), "no request inside errorExpiryLength")
					}
				} else if _, kerr := ep.Key(params); kerr != nil {
					assert.EqualError(t, kerr, msg)
				}
				assert.True(t, value.Equal(before, after), "store changed:\nbefore %.2000s\nafter  %.2000s", before, after)
				if c.check != nil {
					c.check(t, e, v, err)
				}
			}
			assert.Zero(t, e.Ctrl.PendingOptimistic(), "no optimistic update is left")
			assert.Empty(t, e.Ctrl.State().Get("optimistic").Elems())
			e.alive()
		})
	}
}
