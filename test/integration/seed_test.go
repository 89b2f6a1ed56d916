package integration

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testapi"
)

// Every request of the seed's examples (the data-client 6.0 usage examples
// datafetch was first specified from: comments, make_manager, the current
// user, birthdays, profiles, articles, the counter, paginated posts, the
// legacy article resource), read or mutated through endpoints and the
// controller against the fixture API.

func TestSeedComments(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	_, one := e.get("/comments/1")
	_, two := e.get("/comments/2")
	_, all := e.get("/comments")
	_, ofPost2 := e.get("/comments?postId=2")
	require.Equal(t, 30, all.Len())
	require.Equal(t, 5, ofPost2.Len())
	e.API.Reset() // forget the counts of the direct reads above

	self := func(v value.Value) value.Value { return v }
	data := func(v value.Value) value.Value { return v.Get("data") }
	tests := []struct {
		name    string
		path    string
		schema  schema.Schema
		params  value.Value
		counted string // the request as the server counts it
		pick    func(value.Value) value.Value
		want    value.Value
		// stored is the normalized result the store must keep.
		stored string
	}{
		{"detail", "/comments/:id", commentE, id(1), "GET /comments/1", self, one, `"1"`},
		// Comment 2, not 1: the detail above stored comment 1, from which a
		// read of {data: Comment} for id 1 is inferred with no request (as
		// data-client infers an object schema of entities; checked below).
		{"wrapped detail", "/wrapped/comments/:id", schema.ObjectOf(schema.Nested("data", commentE)), id(2),
			"GET /wrapped/comments/2", data, two, `{"data":"2"}`},
		{"list", "/comments", schema.ArrayOf(commentE), value.Undef, "GET /comments", self, all,
			`[` + quotedSeq(1, 30) + `]`},
		{"wrapped list", "/wrapped/comments", schema.ObjectOf(schema.Nested("data", schema.ArrayOf(commentE))), value.Undef,
			"GET /wrapped/comments", data, all, `{"data":[` + quotedSeq(1, 30) + `]}`},
		{"list with query param", "/comments", schema.ArrayOf(commentE), obj(`{"postId":2}`),
			"GET /comments?postId=2", self, ofPost2, `[` + quotedSeq(6, 10) + `]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ep := e.Endpoint(rest.Options{Name: tt.name, Path: tt.path, Schema: tt.schema})
			got := e.Suspense(ep, tt.params)
			assert.True(t, value.Equal(tt.want, tt.pick(got)), "got %v\nwant %v", tt.pick(got), tt.want)
			assert.Equal(t, 1, e.API.Count(tt.counted))

			// Nested structure is kept: the store holds the envelope with
			// keys in place of the records.
			key, err := ep.Key(tt.params)
			require.NoError(t, err)
			assert.Equal(t, tt.stored, e.Ctrl.State().Get("endpoints").Get(key).JSON())

			again := e.Suspense(ep, tt.params)
			assert.True(t, value.Same(got, again), "a fresh re-read is the identical value")
			assert.Equal(t, 1, e.API.Count(tt.counted), "a fresh re-read makes no request")
		})
	}

	// The wrapped detail of a stored comment is inferred from the entity
	// table: no request, the stored record under data.
	wrapped := e.Endpoint(rest.Options{Name: "wrapped detail, inferred", Path: "/wrapped/comments/:id",
		Schema: schema.ObjectOf(schema.Nested("data", commentE))})
	inferred := e.Suspense(wrapped, id(1))
	assert.True(t, value.Equal(one, inferred.Get("data")), "got %v\nwant %v", inferred.Get("data"), one)
	assert.Equal(t, 0, e.API.Count("GET /wrapped/comments/1"))

	// Every shape normalized into one table of 30 comments.
	c1 := e.Ctrl.State().Get("entities").Get("Comment").Get("1")
	assert.Equal(t, 30, e.Ctrl.State().Get("entities").Get("Comment").Len())
	assert.Equal(t, "great write-up, one question", c1.Get("name").Str())
	assert.Equal(t, "chiara.l@example.net", c1.Get("email").Str())
	assert.Equal(t, 2, strings.Count(c1.Get("body").Str(), "\n"), "the body keeps its line breaks")
	assert.EqualValues(t, 1, num(c1, "postId"))
}

func quotedSeq(lo, hi int) string {
	var b strings.Builder
	for i := lo; i <= hi; i++ {
		if i > lo {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(strconv.Itoa(i)))
	}
	return b.String()
}

func TestSeedProfiles(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	detail := e.Endpoint(rest.Options{Name: "profile", Path: "/profiles/:id", Schema: profileE})
	list := e.Endpoint(rest.Options{Name: "profiles", Path: "/profiles", Schema: schema.ArrayOf(profileE)})

	p := e.Suspense(detail, id("3"))
	assert.Equal(t, `{"id":"3","fullName":"Chiara Lindqvist","bio":"Frontend developer who prefers her state normalized and her coffee black.","avatar":""}`, p.JSON(),
		"server fields, then the avatar default")
	assert.Equal(t, 1, e.API.Count("GET /profiles/3"))

	ps := e.Suspense(list, value.Undef)
	assert.Equal(t, seq(1, 8), ids(ps))
	for _, el := range ps.Elems() {
		assert.Equal(t, value.String, el.Get("avatar").Kind(), "default filled in on list members too")
		assert.NotEmpty(t, el.Get("fullName").Str())
	}
	assert.Equal(t, 1, e.API.Count("GET /profiles"))
	// The list and the detail share the entity: the detail re-read is
	// unchanged (equal data) and made no request.
	assert.True(t, value.Equal(p, e.Ctrl.GetResponse(detail, id("3")).Data))
	assert.Equal(t, 1, e.API.Count("GET /profiles/3"))
}

func TestSeedCurrentUserAndMakeManager(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	current := e.Endpoint(rest.Options{Name: "currentUser", Path: "/current_user/", Schema: userE})
	makeManager := e.Endpoint(rest.Options{Name: "makeManager", Path: "/users/:id/make_manager", Method: "POST", Schema: userE})

	u := e.Suspense(current, value.Undef) // no params at all
	assert.Equal(t, `{"id":1,"name":"Ada Whitfield","email":"ada.whitfield@example.com","isManager":false}`, u.JSON())
	assert.Equal(t, 1, e.API.Count("GET /current_user/"))

	m := e.Fetch(makeManager, id(1), nil)
	assert.True(t, m.Get("isManager").Boolean())
	assert.EqualValues(t, 1, num(m, "id"))
	reqs := e.rec.find("POST", "/users/1/make_manager")
	require.Len(t, reqs, 1)
	assert.Empty(t, reqs[0].Body, "make_manager sends no body")

	// The current user is the same entity: it changed without a request.
	r := e.Ctrl.GetResponse(current, value.Undef)
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus)
	assert.True(t, r.Data.Get("isManager").Boolean())
	assert.Equal(t, 1, e.API.Count("GET /current_user/"))

	// Mutations are not cached by key: a second one goes to the server.
	e.Fetch(makeManager, id(1), nil)
	assert.Equal(t, 2, e.API.Count("POST /users/1/make_manager"))
}

func TestSeedArticleResource(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	r := e.Resource("/articles/:id", articleE, rest.Options{})
	users := e.Endpoint(rest.Options{Name: "users", Path: "/users", Schema: schema.ArrayOf(userE)})
	epoch := time.Date(2024, time.March, 1, 9, 0, 0, 0, time.UTC)

	// get: dates read as epoch ms, defaults filled, the author (a user id on
	// the wire) missing until users are fetched.
	a1 := e.Suspense(r.Get, id("1"))
	assert.Equal(t, "Normalizing nested API responses", a1.Get("title").Str())
	assert.True(t, a1.Get("published").Boolean())
	assert.Equal(t, `["caching","pagination"]`, a1.Get("tags").JSON())
	assert.Equal(t, ms(epoch), num(a1, "createdAt"))
	assert.Equal(t, value.Number, a1.Get("createdAt").Kind())
	assert.Equal(t, "", a1.Get("summary").Str())
	assert.True(t, a1.Has("summary"), "default filled for a field the server does not send")
	assert.True(t, a1.Get("author").IsUndefined(), "a nested entity not in the store reads as undefined")
	assert.Equal(t, 1, e.API.Count("GET /articles/1"))

	e.Suspense(users, value.Undef)
	a1 = e.Ctrl.GetResponse(r.Get, id("1")).Data
	assert.Equal(t, `{"id":1,"name":"Ada Whitfield","email":"ada.whitfield@example.com","isManager":false}`, a1.Get("author").JSON(),
		"the nested author resolves once users are stored")

	// getList
	list := e.Suspense(r.GetList, value.Undef)
	assert.Equal(t, seq(1, 24), ids(list))
	assert.False(t, list.Elems()[3].Get("published").Boolean(), "article 4 is a draft")
	assert.Equal(t, ms(epoch.Add(29*time.Hour+17*time.Minute)), num(list.Elems()[1], "createdAt"))
	for _, el := range list.Elems() {
		assert.Equal(t, value.Object, el.Get("author").Kind(), "article %s has its author resolved", text(el, "id"))
	}
	assert.True(t, value.Same(a1, list.Elems()[0]), "one entity, one read form, in the list and the detail")

	// create: the server assigns the id.
	created := e.Fetch(r.Create, value.Undef, obj(`{"title":"Fresh","content":"Body text"}`))
	assert.Equal(t, "101", created.Get("id").Str())
	assert.Equal(t, "Fresh", created.Get("title").Str())
	assert.False(t, created.Get("published").Boolean())
	assert.Equal(t, `[]`, created.Get("tags").JSON())
	assert.True(t, created.Get("author").IsNull())
	assert.Equal(t, value.Number, created.Get("createdAt").Kind(), "server ISO time stored as ms")

	// partialUpdate sends only the changed field.
	patched := e.Fetch(r.PartialUpdate, id("101"), obj(`{"published":true}`))
	assert.True(t, patched.Get("published").Boolean())
	assert.Equal(t, "Fresh", patched.Get("title").Str())
	reqs := e.rec.find("PATCH", "/articles/101")
	require.Len(t, reqs, 1)
	assert.JSONEq(t, `{"published":true}`, reqs[0].Body)

	// update replaces every editable field.
	replaced := e.Fetch(r.Update, id("101"), obj(`{"title":"Replaced"}`))
	assert.Equal(t, "Replaced", replaced.Get("title").Str())
	assert.Equal(t, "", replaced.Get("content").Str())
	assert.False(t, replaced.Get("published").Boolean())

	// delete: 204 with an empty body; the params say what was deleted.
	_, err := e.Ctrl.Fetch(context.Background(), r.Delete, id("101"), nil)
	require.NoError(t, err)
	assert.True(t, e.Ctrl.State().Get("entities").Get("Article").Get("101").IsNull(), "entity marked deleted")
	status, _ := e.get("/articles/101")
	assert.Equal(t, 404, status)

	// Deleting an article in the list drops it from the list at once,
	// without a refetch.
	_, err = e.Ctrl.Fetch(context.Background(), r.Delete, id("2"), nil)
	require.NoError(t, err)
	after := e.Ctrl.GetResponse(r.GetList, value.Undef)
	assert.Equal(t, append([]string{"1"}, seq(3, 24)...), ids(after.Data))

	for _, want := range []string{
		"GET /articles/1", "GET /articles", "POST /articles", "PATCH /articles/101",
		"PUT /articles/101", "DELETE /articles/101", "DELETE /articles/2",
	} {
		assert.Equal(t, 1, e.API.Count(want), want)
	}
}

func TestSeedCountAndIncrement(t *testing.T) {
	serverNow := time.Date(2025, time.June, 15, 12, 0, 0, 0, time.UTC)
	e := newEnv(t, testapi.Options{Now: func() time.Time { return serverNow }}, controller.Options{})
	getCount := e.Endpoint(rest.Options{Name: "count", Path: "/api/count", Schema: orderedCountE})
	increment := e.Endpoint(rest.Options{Name: "increment", Path: "/api/count/increment", Method: "POST", Schema: orderedCountE})

	c := e.Suspense(getCount, value.Undef)
	assert.EqualValues(t, 0, num(c, "count"))
	assert.Equal(t, ms(serverNow), num(c, "updatedAt"), "ISO updatedAt read as epoch ms")

	body := value.Obj(value.M("updatedAt", value.Int(e.Clock.Now().UnixMilli())))
	inc := e.Fetch(increment, value.Undef, body)
	assert.EqualValues(t, 1, num(inc, "count"))
	reqs := e.rec.find("POST", "/api/count/increment")
	require.Len(t, reqs, 1)
	assert.JSONEq(t, body.JSON(), reqs[0].Body)

	// The count endpoint reads the same singleton: 1, with no new GET.
	assert.EqualValues(t, 1, num(e.Ctrl.GetResponse(getCount, value.Undef).Data, "count"))
	assert.Equal(t, 1, e.API.Count("GET /api/count"))
	assert.Equal(t, 1, e.API.Count("POST /api/count/increment"))
	assert.Equal(t, `{"SINGLETON"`, e.Ctrl.State().Get("entities").Get("Count").JSON()[:len(`{"SINGLETON"`)])
}

// lastPageSchema is the page with a last-page token:
// {results, nextPage, lastPage}.
func lastPageSchema() schema.Schema {
	return schema.ObjectOf(schema.Nested("results", schema.ArrayOf(postE)),
		schema.Default("nextPage", value.Str("")), schema.Default("lastPage", value.Str("")))
}

func TestSeedPostPages(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	pages := e.Endpoint(rest.Options{Name: "postPage", Path: "/post", Schema: lastPageSchema()})
	tests := []struct {
		page, next string
		ids        []string
	}{
		{"1", "2", seq(1, 5)},
		{"2", "3", seq(6, 10)},
		{"5", "", seq(21, 23)},
	}
	for _, tt := range tests {
		t.Run("page "+tt.page, func(t *testing.T) {
			v := e.Suspense(pages, value.Obj(value.M("page", value.Str(tt.page))))
			assert.Equal(t, tt.ids, ids(v.Get("results")))
			assert.Equal(t, tt.next, v.Get("nextPage").Str())
			assert.Equal(t, value.String, v.Get("nextPage").Kind())
			assert.Equal(t, "5", v.Get("lastPage").Str())
			assert.Equal(t, 1, e.API.Count("GET /post?page="+tt.page))
		})
	}
}

// tokenPageSchema is the token-in-body page: {results, nextPage, prevPage},
// a null or empty token meaning no such page.
func tokenPageSchema() schema.Schema {
	return schema.ObjectOf(schema.Nested("results", schema.ArrayOf(postE)),
		schema.Default("nextPage", value.Str("")), schema.Default("prevPage", value.Str("")))
}

func TestSeedTokenPages(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	pages := e.Endpoint(rest.Options{Name: "posts", Path: "/posts", Schema: tokenPageSchema()})
	first := e.Suspense(pages, value.Undef)
	assert.Equal(t, seq(1, 5), ids(first.Get("results")))
	assert.True(t, first.Get("prevPage").IsNull(), "null token: no previous page")
	assert.Equal(t, "/posts?page=2", first.Get("nextPage").Str())

	second := e.Suspense(pages, value.Obj(value.M("page", first.Get("nextPage"))))
	assert.Equal(t, seq(6, 10), ids(second.Get("results")))
	assert.Equal(t, "/posts?page=1", second.Get("prevPage").Str())
	assert.Equal(t, 1, e.API.Count("GET /posts?page=%2Fposts%3Fpage%3D2"))
}

// linkFetch is the custom fetch of a header-token list: it reads the Link header
// and returns it with the parsed body.
func linkFetch(ctx context.Context, e *rest.Endpoint, params value.Value, body any) (value.Value, error) {
	resp, err := e.Send(ctx, params, body)
	if err != nil {
		return value.Undef, err
	}
	results, err := e.DefaultParseResponse(resp)
	if err != nil {
		return value.Undef, err
	}
	return value.Obj(value.M("link", value.Str(resp.Header.Get("Link"))), value.M("results", results)), nil
}

func linkSchema() schema.Schema {
	return schema.ObjectOf(schema.Nested("results", schema.ArrayOf(postE)), schema.Default("link", value.Str("")))
}

func TestSeedLinkHeaderList(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	linked := e.Endpoint(rest.Options{Name: "linked", Path: "/linked/posts", Schema: linkSchema(), Fetch: linkFetch})
	link := func(p int, rel string) string {
		return "<" + e.URL + "/linked/posts?page=" + strconv.Itoa(p) + `>; rel="` + rel + `"`
	}
	tests := []struct {
		page int
		link string
		ids  []string
	}{
		{1, link(2, "next"), seq(1, 5)},
		{3, link(4, "next") + ", " + link(2, "prev"), seq(11, 15)},
		{5, link(4, "prev"), seq(21, 23)},
	}
	for _, tt := range tests {
		t.Run("page "+strconv.Itoa(tt.page), func(t *testing.T) {
			v := e.Suspense(linked, value.Obj(value.M("page", value.Int(int64(tt.page)))))
			assert.Equal(t, tt.link, v.Get("link").Str())
			assert.Equal(t, tt.ids, ids(v.Get("results")))
			assert.True(t, strings.HasPrefix(v.Get("results").Elems()[0].Get("content").Str(), "Post "+tt.ids[0]+"."))
			assert.Equal(t, 1, e.API.Count("GET /linked/posts?page="+strconv.Itoa(tt.page)))
		})
	}
	// The entities are normalized: the stored result holds pks.
	key, _ := linked.Key(obj(`{"page":1}`))
	assert.Equal(t, `["1","2","3","4","5"]`, e.Ctrl.State().Get("endpoints").Get(key).Get("results").JSON())
}

func TestSeedSequentialReads(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	pages := e.Endpoint(rest.Options{Name: "postPage", Path: "/post", Schema: lastPageSchema()})
	user := e.Endpoint(rest.Options{Name: "user", Path: "/users/:id", Schema: userE})

	page := e.Suspense(pages, obj(`{"page":"1"}`))
	post := page.Get("results").Elems()[1]
	require.Equal(t, "2", text(post, "id"))
	assert.EqualValues(t, 4, num(post, "userId"), "unknown fields of a record are kept")

	// The second read takes its params from the first.
	author := e.Suspense(user, value.Obj(value.M("id", post.Get("userId"))))
	assert.Equal(t, "Dmitri Okafor", author.Get("name").Str())
	assert.Equal(t, 1, e.API.Count("GET /users/4"))
}

func TestSeedUpcomingBirthdays(t *testing.T) {
	serverNow := time.Date(2025, time.June, 15, 12, 0, 0, 0, time.UTC)
	e := newEnv(t, testapi.Options{Now: func() time.Time { return serverNow }}, controller.Options{})
	upcoming := e.Endpoint(rest.Options{Name: "upcoming", Path: "/api/birthdays/upcoming/", Schema: schema.ObjectOf(
		schema.Nested("withinSevenDays", schema.ArrayOf(birthdayE)),
		schema.Nested("withinThirtyDays", schema.ArrayOf(birthdayE)),
	)})
	v := e.Suspense(upcoming, value.Undef)

	born := func(y int, m time.Month, d int) float64 { return ms(time.Date(y, m, d, 0, 0, 0, 0, time.UTC)) }
	type bday struct {
		id, name string
		date     float64
	}
	check := func(list value.Value, want []bday) {
		t.Helper()
		require.Equal(t, len(want), list.Len())
		for i, w := range want {
			b := list.Elems()[i]
			assert.Equal(t, w.id, b.Get("id").Str())
			assert.Equal(t, w.name, b.Get("name").Str())
			assert.Equal(t, w.date, num(b, "date"), "%s: date as epoch ms", w.name)
			assert.Equal(t, "/images/avatars/"+w.id+".png", b.Get("image").Str())
			assert.NotEmpty(t, b.Get("source").Str())
		}
	}
	check(v.Get("withinSevenDays"), []bday{
		{"1", "Marta Ruiz", born(1975, time.June, 15)},
		{"2", "Kwame Asante", born(1978, time.June, 18)},
		{"3", "Lena Fischer", born(1981, time.June, 21)},
		{"4", "Oskar Nilsen", born(1984, time.June, 22)},
	})
	check(v.Get("withinThirtyDays"), []bday{
		{"5", "Priya Raman", born(1987, time.June, 24)},
		{"6", "Tomás Silva", born(1990, time.July, 1)},
		{"7", "Yuki Aoki", born(1993, time.July, 8)},
		{"8", "Zanele Dlamini", born(1996, time.July, 15)},
	})
	key, _ := upcoming.Key(value.Undef)
	assert.Equal(t, `{"withinSevenDays":["1","2","3","4"],"withinThirtyDays":["5","6","7","8"]}`,
		e.Ctrl.State().Get("endpoints").Get(key).JSON(), "both lists kept in their envelope")
	assert.Equal(t, 1, e.API.Count("GET /api/birthdays/upcoming/"))
}

func TestSeedLegacyResource(t *testing.T) {
	e := newEnv(t, testapi.Options{}, controller.Options{})
	r, err := rest.LegacyResource(e.URL+"/article/", legacyE)
	require.NoError(t, err)
	assert.Same(t, r.GetList, r.Endpoint("listShape"))
	assert.Same(t, r.Get, r.Endpoint("detail"))

	tests := []struct {
		id   int
		want string
	}{
		{2, `{"id":2,"content":"Legacy article 2. An optimistic update is applied the moment the request starts and is replaced, or undone, when the server answers.","author":4,"contributors":[2]}`},
		{3, `{"id":3,"content":"Legacy article 3. Two identical reads in flight share one request; a mutation is never shared.","author":7,"contributors":[3,7]}`},
		{4, `{"id":4,"content":"Legacy article 4. Responses that arrive out of order must not overwrite newer data, so each carries the moment its request began.","author":null,"contributors":[]}`},
	}
	for _, tt := range tests {
		t.Run("detail "+strconv.Itoa(tt.id), func(t *testing.T) {
			v := e.Suspense(r.Get, id(tt.id))
			assert.JSONEq(t, tt.want, v.JSON())
			assert.Equal(t, 1, e.API.Count("GET /article/"+strconv.Itoa(tt.id)))
			// pk() returns the id as a string.
			assert.True(t, e.Ctrl.State().Get("entities").Get("LegacyArticle").Has(strconv.Itoa(tt.id)))
		})
	}
	list := e.Suspense(r.GetList, value.Undef)
	assert.Equal(t, seq(1, 8), ids(list))
	assert.Equal(t, 1, e.API.Count("GET /article/"))
	assert.JSONEq(t, tests[2].want, list.Elems()[3].JSON())

	// A create and a detail read of the new record use the legacy paths.
	created := e.Fetch(r.Create, value.Undef, obj(`{"content":"new"}`))
	assert.EqualValues(t, 101, num(created, "id"))
	assert.Equal(t, `[]`, created.Get("contributors").JSON())
	assert.Equal(t, 1, e.API.Count("POST /article/"))
	v := e.Suspense(r.Get, id(101))
	assert.Equal(t, "new", v.Get("content").Str())
	assert.Equal(t, 0, e.API.Count("GET /article/101"), "read from the entity the create stored")
	v = e.Fetch(r.Get, id(101), nil)
	assert.Equal(t, "new", v.Get("content").Str())
	assert.Equal(t, 1, e.API.Count("GET /article/101"))
}
