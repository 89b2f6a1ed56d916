package df_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

func TestReadDecodesNestedEntitiesDatesAndUnknownMembers(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()

	list, err := arts.GetList.Suspense(context.Background(), ctrl, nil)
	require.NoError(t, err)
	require.Len(t, list, 2)
	first := list[0]
	assert.Equal(t, "Hello", first.Title)
	require.NotNil(t, first.Author)
	assert.Equal(t, User{ID: 7, Name: "Ada"}, *first.Author)
	assert.Same(t, first.Author, list[1].Author, "one User entity, one pointer")
	assert.Equal(t, []string{"go"}, first.Tags)
	assert.Equal(t, time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC), first.CreatedAt)
	assert.Equal(t, Stats{Views: 3}, first.Stats)
	assert.Equal(t, `{"rating":5}`, first.Extra.Value().JSON(), "members without a field are kept")

	second := list[1]
	assert.True(t, second.CreatedAt.IsZero(), "an absent Date is the zero Time")
	assert.NotNil(t, second.Tags, "an empty array is an empty slice, not nil")
	assert.Empty(t, second.Tags)
	assert.Equal(t, 0, second.Extra.Len())

	one, err := arts.Get.Suspense(context.Background(), ctrl, map[string]string{"id": "1"})
	require.NoError(t, err)
	assert.Equal(t, "Hello", one.Title)
}

func TestIdentityAcrossReads(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	ctx := context.Background()

	list, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	again, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	assert.True(t, df.Same(list, again), "an unchanged list is the same slice")
	assert.Same(t, list[0], again[0])

	one, err := arts.Get.Suspense(ctx, ctrl, map[string]any{"id": "2"})
	require.NoError(t, err)
	assert.Same(t, list[1], one, "the entity read through another endpoint is the same pointer")

	// Article 1 changes on the server; a refetch stores it.
	a.set("1", "title", "Hello, again")
	_, err = arts.GetList.Fetch(ctx, ctrl, nil, nil)
	require.NoError(t, err)
	changed, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	assert.False(t, df.Same(list, changed), "the list holding a changed entity is new")
	assert.NotSame(t, list[0], changed[0], "the changed entity is new")
	assert.Equal(t, "Hello, again", changed[0].Title)
	assert.Equal(t, "Hello", list[0].Title, "what was read before is not changed")
	assert.Same(t, list[1], changed[1], "the unchanged entity keeps its pointer")
	assert.Same(t, list[0].Author, changed[0].Author, "the unchanged author inside the changed entity too")
}

func TestSubscribeIsTyped(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	states := make(chan df.State[[]*Article], 16)
	unsub, err := arts.GetList.Subscribe(ctrl, nil, func(st df.State[[]*Article]) { states <- st })
	require.NoError(t, err)
	defer unsub()
	st := testkit.Wait(t, states, "the first state")
	for !st.Has {
		st = testkit.Wait(t, states, "the list")
	}
	assert.Equal(t, endpoint.Valid, st.ExpiryStatus)
	assert.True(t, st.Usable())
	assert.Equal(t, "Again", st.Data[1].Title)

	resp := arts.GetList.Response(ctrl, nil)
	assert.True(t, resp.Has)
	assert.True(t, df.Same(st.Data, resp.Data), "the subscriber's list is the one a read returns")
	assert.Equal(t, time.UnixMilli(1_767_225_600_000+60_000).UTC(), resp.ExpiresAt)
}

// TestOptimisticUpdateAndRollback publishes an article with a typed body:
// the change shows at once, is rolled back when the server refuses it, and
// stays when it accepts.
func TestOptimisticUpdateAndRollback(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	ctx := context.Background()
	list, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	before := list[0]

	type publish struct {
		Published bool `df:"published"`
	}
	one := struct{ ID string }{"1"}

	// Refused: optimistic while the request waits, rolled back after.
	a.refuse.Store(true)
	gate := make(chan struct{})
	a.mu.Lock()
	a.gate = gate
	a.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := arts.PartialUpdate.Fetch(ctx, ctrl, one, publish{Published: true})
		done <- err
	}()
	optimistic := make(chan []*Article, 8)
	unsub, err := arts.GetList.Subscribe(ctrl, nil, func(st df.State[[]*Article]) {
		if st.Has && st.Data[0].Published {
			optimistic <- st.Data
		}
	}, controllerNoFetch)
	require.NoError(t, err)
	shown := testkit.Wait(t, optimistic, "the optimistic list")
	unsub()
	assert.True(t, shown[0].Published)
	assert.Same(t, list[1], shown[1], "the other entity keeps its pointer")
	close(gate)
	err = testkit.Wait(t, done, "the refused publish")
	var nerr *rest.NetworkError
	require.ErrorAs(t, err, &nerr)
	assert.Equal(t, 500, nerr.Status)
	rolledBack, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	assert.False(t, rolledBack[0].Published)
	assert.Same(t, before, rolledBack[0], "a rollback gives back the entity read before")

	// Accepted.
	a.refuse.Store(false)
	a.mu.Lock()
	a.gate = nil
	a.mu.Unlock()
	got, err := arts.PartialUpdate.Fetch(ctx, ctrl, one, publish{Published: true})
	require.NoError(t, err)
	assert.True(t, got.Published)
	assert.Equal(t, record{"published": true}, testkit.Wait(t, a.patched, "the PATCH body"))
	now, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	assert.Same(t, got, now[0], "the mutation's result is the entity in the list")
}

// TestBodyRoundTrip sends a read article back as a body: its Date goes as
// an ISO-8601 string, and members without a field go back too.
func TestBodyRoundTrip(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	ctx := context.Background()
	art, err := arts.Get.Suspense(ctx, ctrl, map[string]string{"id": "1"})
	require.NoError(t, err)

	edited := *art // a copy: reads are shared
	edited.Title = "Edited"
	got, err := arts.PartialUpdate.Fetch(ctx, ctrl, map[string]string{"id": "1"}, edited)
	require.NoError(t, err)
	sent := testkit.Wait(t, a.patched, "the PATCH body")
	assert.Equal(t, "2026-01-02T03:04:05.678Z", sent["createdAt"])
	assert.EqualValues(t, 5, sent["rating"], "the unknown member goes back")
	assert.Equal(t, map[string]any{"id": float64(7), "name": "Ada"}, sent["author"])
	assert.Equal(t, "Edited", got.Title)
	assert.Equal(t, art.CreatedAt, got.CreatedAt, "the Date survives the round trip")
	assert.Equal(t, 5.0, got.Extra.Get("rating").Go())
}

// controllerNoFetch only listens.
var controllerNoFetch = controllerSubscribeOptions()

func TestErrorsNameTheField(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	ctx := context.Background()
	type badBody struct {
		Title     string
		Published func()
	}
	type nested struct {
		Author struct{ Ch chan int }
	}
	tests := []struct {
		name          string
		params, body  any
		want          string
		wantEncodeErr bool
	}{
		{"a func in a body", map[string]string{"id": "1"}, badBody{Title: "x"},
			"Article.partialUpdate: body: field Published: cannot encode func()", true},
		{"a nested channel", map[string]string{"id": "1"}, nested{},
			"Article.partialUpdate: body: field Author.Ch: cannot encode chan int", true},
		{"a map element", map[string]string{"id": "1"}, map[string]any{"tags": []any{"a", 1i}},
			`Article.partialUpdate: body: field ["tags"][1]: cannot encode complex128`, true},
		{"map keys", map[string]string{"id": "1"}, map[int]string{1: "a"},
			"Article.partialUpdate: body: cannot encode map[int]string: map keys must be strings", true},
		{"a func param", struct{ ID func() }{}, nil,
			"Article.partialUpdate: params: field ID: cannot encode func()", true},
		{"params not an object", "1", nil,
			"Article.partialUpdate: params: want a struct or a map, got string", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := a.requests.Load()
			_, err := arts.PartialUpdate.Fetch(ctx, ctrl, tt.params, tt.body)
			require.EqualError(t, err, tt.want)
			var eerr *df.EncodeError
			assert.Equal(t, tt.wantEncodeErr, errors.As(err, &eerr))
			assert.Equal(t, before, a.requests.Load(), "nothing was sent")
		})
	}
}

func TestDecodeErrorsNameThePlace(t *testing.T) {
	ep, err := df.Wrap[[]*Article](&fixed{})
	require.NoError(t, err)
	tests := []struct {
		name, data, want string
	}{
		{"a number for a string", `[{"id":"1","title":3}]`, `fixed: df: decode []*df_test.Article[0].title: want a string, got number 3`},
		{"an object for a list", `{"id":"1"}`, `fixed: df: decode []*df_test.Article: want an array, got object`},
		{"a nested entity", `[{"id":"1"},{"id":"2","author":{"id":"x"}}]`, `fixed: df: decode []*df_test.Article[1].author.id: want a number, got string "x"`},
		{"a bad date", `[{"id":"1","createdAt":"yesterday"}]`, `fixed: df: decode []*df_test.Article[0].createdAt: invalid date "yesterday": want ISO-8601`},
		{"a date out of range", `[{"id":"1","createdAt":1e300}]`,
			`fixed: df: decode []*df_test.Article[0].createdAt: 1e300 is out of range (a time is epoch milliseconds within ±9007199254740991)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ep.Decode(value.MustParse(tt.data))
			require.EqualError(t, err, tt.want)
			var derr *df.DecodeError
			assert.ErrorAs(t, err, &derr)
		})
	}
}

func TestPlanErrorsNameTheField(t *testing.T) {
	type withFunc struct {
		ID int
		F  func()
	}
	type withMapKey struct{ M map[int]string }
	_, err := df.Wrap[*withFunc](&fixed{})
	assert.EqualError(t, err, "df: *df_test.withFunc.F: cannot decode into func()")
	_, err = df.Wrap[withMapKey](&fixed{})
	assert.EqualError(t, err, "df: df_test.withMapKey.M: cannot decode into map[int]string: map keys must be strings")
	_, err = df.EntityOf[Stats]()
	assert.EqualError(t, err, `df: df_test.Stats is not an entity: no field tagged pk, none named "id"`)
}

func TestDates(t *testing.T) {
	type Event struct {
		ID int       `df:"id"`
		At time.Time `df:"at"`
	}
	ep, err := df.Wrap[*Event](&fixed{})
	require.NoError(t, err)
	at := time.Date(2026, 3, 4, 5, 6, 7, 8e6, time.UTC)
	tests := []struct {
		name, data string
		want       time.Time
	}{
		{"epoch ms, as the store keeps them", `{"id":1,"at":` + value.Int(at.UnixMilli()).JSON() + `}`, at},
		{"an ISO string", `{"id":1,"at":"2026-03-04T05:06:07.008Z"}`, at},
		{"an offset", `{"id":1,"at":"2026-03-04T06:06:07.008+01:00"}`, at},
		{"null", `{"id":1,"at":null}`, time.Time{}},
		{"absent", `{"id":1}`, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := ep.Decode(value.MustParse(tt.data))
			require.NoError(t, err)
			assert.True(t, tt.want.Equal(ev.At), "got %v", ev.At)
			if !tt.want.IsZero() {
				assert.Equal(t, time.UTC, ev.At.Location())
			}
		})
	}
	// Encoded back: ISO-8601 in UTC, the zero Time as null; through the
	// schema (Date) it is stored as epoch ms and reads back equal.
	v, err := df.Encode(Event{ID: 1, At: at.In(time.FixedZone("x", 3600))})
	require.NoError(t, err)
	assert.Equal(t, `{"id":1,"at":"2026-03-04T05:06:07.008Z"}`, v.JSON())
	v, err = df.Encode(Event{ID: 1})
	require.NoError(t, err)
	assert.Equal(t, `{"id":1,"at":null}`, v.JSON())
	e, err := df.EntityOf[Event]()
	require.NoError(t, err)
	assert.True(t, schema.IsDate(e.Schema["at"]))
}

func TestEntitySchema(t *testing.T) {
	e, err := df.EntityOf[Article]()
	require.NoError(t, err)
	assert.Equal(t, "Article", e.Key)
	assert.Equal(t, "id", e.PK)
	assert.Equal(t, `{"id":null,"title":"","published":false,"author":null,"tags":null,"createdAt":null,"stats":null}`,
		e.Defaults.JSON())
	u, err := df.EntityOf[User]()
	require.NoError(t, err)
	assert.Same(t, u, e.Schema["author"], "the author field is the User entity")
	assert.True(t, schema.IsDate(e.Schema["createdAt"]))
	assert.NotContains(t, e.Schema, "stats", "a plain struct is not normalized")
	require.NoError(t, schema.Check(e))

	// Entities that hold each other.
	type Comment struct {
		ID     int `df:"id"`
		Parent *Comment
		Thread []*Comment
	}
	c, err := df.EntityOf[Comment]()
	require.NoError(t, err)
	assert.Same(t, c, c.Schema["parent"])
	require.IsType(t, &schema.Array{}, c.Schema["thread"])
	s, err := df.SchemaOf[struct {
		Results  []*Comment `json:"results"`
		NextPage string     `json:"nextPage"`
	}]()
	require.NoError(t, err)
	require.IsType(t, &schema.Object{}, s)
	require.NoError(t, schema.Check(s))
}

func TestEncode(t *testing.T) {
	type inner struct {
		N int `df:"n,omitempty"`
	}
	type body struct {
		inner
		Name  string         `json:"name"`
		Skip  string         `df:"-"`
		Opt   *string        `df:"opt,omitempty"`
		Any   any            `df:"any"`
		Raw   value.Value    `df:"raw"`
		Map   map[string]int `df:"map"`
		Bytes [2]uint8       `df:"bytes"`
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"nil", nil, `null`},
		{"a value", value.MustParse(`{"a":1}`), `{"a":1}`},
		{"a struct", body{inner: inner{N: 2}, Name: "x", Skip: "y", Any: []any{1.5, "z"}, Raw: value.True,
			Map: map[string]int{"b": 2, "a": 1}, Bytes: [2]uint8{1, 2}},
			`{"n":2,"name":"x","any":[1.5,"z"],"raw":true,"map":{"a":1,"b":2},"bytes":[1,2]}`},
		{"omitted zero fields", body{}, `{"name":"","any":null,"map":null,"bytes":[0,0]}`},
		{"a pointer to a struct", &User{ID: 1, Name: "Ada"}, `{"id":1,"name":"Ada"}`},
		{"a nil pointer", (*User)(nil), `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := df.Encode(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, v.JSON())
		})
	}
	type loop struct{ Next *loop }
	l := &loop{}
	l.Next = l
	_, err := df.Encode(l)
	assert.ErrorContains(t, err, "nested too deep")
}

func TestMemberNames(t *testing.T) {
	type names struct {
		ID        int
		Title     string
		URLPath   string
		CreatedAt string
		X         string
		already   string //nolint:unused // unexported: not a member
	}
	v, err := df.Encode(names{})
	require.NoError(t, err)
	assert.Equal(t, `{"id":0,"title":"","urlPath":"","createdAt":"","x":""}`, v.JSON())
}

func TestRawAndValueFields(t *testing.T) {
	ep := df.Raw(&fixed{})
	data := value.MustParse(`{"a":[1]}`)
	got, err := ep.Decode(data)
	require.NoError(t, err)
	assert.True(t, value.Same(data, got))
}

// TestOptimisticResource: NewResource with Optimistic gives the typed
// mutations data-client's optimistic responses: a partial update shows the
// stored article with the body over it, and a push of a body without an
// id shows at once (under a temporary pk), replaced by the server's.
func TestOptimisticResource(t *testing.T) {
	a := newAPI(t)
	arts, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: a.URL, Path: "/articles/:id", Optimistic: true})
	require.NoError(t, err)
	ctrl := newController()
	ctx := context.Background()
	list, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, list, 2)

	// whileHeld runs fetch with its request held at the server, and
	// returns the list as it reads then, before the server answers.
	whileHeld := func(method string, fetch func() error) []*Article {
		gate := make(chan struct{})
		a.mu.Lock()
		a.gate = gate
		a.mu.Unlock()
		done := make(chan error, 1)
		go func() { done <- fetch() }()
		assert.Equal(t, method, testkit.Wait(t, a.held, "the request at the server"))
		shown := arts.GetList.Response(ctrl, nil)
		close(gate)
		require.NoError(t, testkit.Wait(t, done, "the mutation"))
		require.NoError(t, shown.Err)
		return shown.Data
	}

	shown := whileHeld(http.MethodPatch, func() error {
		_, err := arts.PartialUpdate.Fetch(ctx, ctrl, map[string]string{"id": "1"}, map[string]bool{"published": true})
		return err
	})
	require.Len(t, shown, 2)
	assert.True(t, shown[0].Published, "the body")
	assert.Equal(t, "Hello", shown[0].Title, "over the stored article")
	assert.Equal(t, list[0].CreatedAt, shown[0].CreatedAt)
	assert.Same(t, list[1], shown[1])

	push := arts.Push // the typed getList.push
	type draft struct {
		Title string `df:"title"`
	}
	shown = whileHeld(http.MethodPost, func() error {
		_, err := push.Fetch(ctx, ctrl, nil, draft{"Draft"})
		return err
	})
	require.Len(t, shown, 3, "the pushed article is in the list")
	assert.Equal(t, "Draft", shown[2].Title)
	assert.Empty(t, shown[2].ID, "no id until the server gives one")
	after, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, after, 3)
	assert.Equal(t, "3", after[2].ID)
	assert.Equal(t, int64(3), a.requests.Load(), "the list, a PATCH and a POST: nothing refetched")
}

func TestResourceExtendRefusesACaseTypo(t *testing.T) {
	arts, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: "http://api.test", Path: "/articles/:id"})
	require.NoError(t, err)
	require.NotNil(t, arts.Push)
	assert.Equal(t, "Article.getList.push", arts.Push.Name())

	_, err = arts.Extend(map[string]func(*rest.Options){"partialupdate": func(o *rest.Options) {}})
	assert.EqualError(t, err, `df: Extend: the resource has no endpoint "partialupdate": did you mean "partialUpdate"? (Add adds an endpoint of that name)`)

	// A new name adds an endpoint; a known one extends it.
	x, err := arts.Extend(map[string]func(*rest.Options){
		"partialUpdate": func(o *rest.Options) { o.Method = "PUT" },
		"publish":       func(o *rest.Options) { o.Method = "POST"; o.Path = "/articles/:id/publish" },
	})
	require.NoError(t, err)
	assert.Equal(t, "PUT", x.Rest.PartialUpdate.Method())
	require.NotNil(t, x.Rest.Endpoint("publish"))
	assert.Equal(t, "POST", x.Rest.Endpoint("publish").Method())
}
