package df_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/test/fixture/testkit"
)

// ArticleParams are the params of one article: its path token.
type ArticleParams struct {
	ID string `df:"id"`
}

func TestWithParamsReadsWithAStruct(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	get, err := df.WithParams[ArticleParams](arts.Get)
	require.NoError(t, err)
	ctrl := newController()

	one, err := get.Suspense(context.Background(), ctrl, ArticleParams{ID: "2"})
	require.NoError(t, err)
	assert.Equal(t, "Again", one.Title)
	byMap, err := arts.Get.Suspense(context.Background(), ctrl, map[string]string{"id": "2"})
	require.NoError(t, err)
	assert.Same(t, one, byMap, "the same result as the untyped call")
	assert.Equal(t, get.Endpoint(), arts.Get)

	key, err := get.Key(ArticleParams{ID: "2"})
	require.NoError(t, err)
	untyped, err := arts.Get.Key(map[string]string{"id": "2"})
	require.NoError(t, err)
	assert.Equal(t, untyped, key)
	assert.Equal(t, "Again", get.Response(ctrl, ArticleParams{ID: "2"}).Data.Title)
}

func TestWithParamsRefusesParamsTypesThatCannotFit(t *testing.T) {
	arts := articles(t, newAPI(t))
	type noID struct {
		Title string `df:"title"`
	}
	type nested struct {
		ID     string `df:"id"`
		Filter struct{ Tag string }
	}
	type withMap struct {
		ID   string            `df:"id"`
		Tags map[string]string `df:"tags"`
	}
	type withFunc struct {
		ID     string `df:"id"`
		OnLoad func()
	}
	type wildcard struct {
		Owner string   `df:"owner"`
		Path  []string `df:"path"`
	}
	tests := []struct {
		name string
		make func() error
		want string
	}{
		{"not a struct", func() error { _, err := df.WithParams[map[string]string](arts.Get); return err },
			"df: Article.get: params type map[string]string is not a struct"},
		{"no field for the token", func() error { _, err := df.WithParams[noID](arts.Get); return err },
			"df: Article.get: params df_test.noID has no field for path token :id of /articles/:id"},
		{"a nested struct", func() error { _, err := df.WithParams[nested](arts.Get); return err },
			"df: Article.get: params df_test.nested: field Filter: struct { Tag string } cannot be a param (want a string, number, boolean or time, or a pointer or slice of them)"},
		{"a map", func() error { _, err := df.WithParams[withMap](arts.Get); return err },
			"df: Article.get: params df_test.withMap: field Tags: map[string]string cannot be a param (want a string, number, boolean or time, or a pointer or slice of them)"},
		{"a func", func() error { _, err := df.WithParams[withFunc](arts.Get); return err },
			"df: Article.get: params df_test.withFunc: field OnLoad: func() cannot be a param (want a string, number, boolean or time, or a pointer or slice of them)"},
		{"no params for a list", func() error { _, err := df.WithParams[struct{}](arts.GetList); return err }, ""},
		{"a query param for the list", func() error { _, err := df.WithParams[noID](arts.GetList); return err }, ""},
		{"pointers, slices, times", func() error {
			type all struct {
				ID    *int      `df:"id"`
				Tags  []string  `df:"tags"`
				Since time.Time `df:"since"`
				Raw   value.Value
			}
			_, err := df.WithParams[all](arts.Get)
			return err
		}, ""},
		{"a wildcard token", func() error {
			ep, err := df.Wrap[value.Value](mustRest(t, "/repos/:owner/*path"))
			require.NoError(t, err)
			_, err = df.WithParams[wildcard](ep)
			return err
		}, ""},
		{"a wildcard token without its field", func() error {
			ep, err := df.Wrap[value.Value](mustRest(t, "/repos/:owner/*path"))
			require.NoError(t, err)
			_, err = df.WithParams[struct{ Owner string }](ep)
			return err
		}, "df: /repos/:owner/*path: params struct { Owner string } has no field for path token *path of /repos/:owner/*path"},
		{"an optional token needs no field", func() error {
			ep, err := df.Wrap[value.Value](mustRest(t, "/users{/:id}"))
			require.NoError(t, err)
			_, err = df.WithParams[struct{}](ep)
			return err
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.make()
			if tc.want == "" {
				assert.NoError(t, err)
			} else {
				assert.EqualError(t, err, tc.want)
			}
		})
	}
}

func TestTypedParamsMissingARequiredTokenFailBeforeSending(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	type optionalID struct {
		ID *string `df:"id,omitempty"`
	}
	get, err := df.WithParams[ArticleParams](arts.Get)
	require.NoError(t, err)
	getPtr, err := df.WithParams[optionalID](arts.Get)
	require.NoError(t, err)
	ctrl := newController()
	ctx := context.Background()

	tests := []struct {
		name string
		call func() error
	}{
		{"Suspense", func() error { _, err := get.Suspense(ctx, ctrl, ArticleParams{}); return err }},
		{"Fetch", func() error { _, err := get.Fetch(ctx, ctrl, ArticleParams{}, nil); return err }},
		{"FetchIfStale", func() error { _, err := get.FetchIfStale(ctx, ctrl, ArticleParams{}); return err }},
		{"Key", func() error { _, err := get.Key(ArticleParams{}); return err }},
		{"Invalidate", func() error { return get.Invalidate(ctrl, ArticleParams{}) }},
		{"SetResponse", func() error { return get.SetResponse(ctrl, ArticleParams{}, &Article{ID: "9"}) }},
		{"Response", func() error { return get.Response(ctrl, ArticleParams{}).Err }},
		{"Subscribe", func() error { _, err := get.Subscribe(ctrl, ArticleParams{}, func(df.State[*Article]) {}); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.EqualError(t, tc.call(), "Article.get: params: field ID is empty: path token :id of /articles/:id needs it")
		})
	}
	_, err = getPtr.Suspense(ctx, ctrl, optionalID{})
	assert.EqualError(t, err, "Article.get: params: field ID is empty: path token :id of /articles/:id needs it", "a nil pointer, left out")
	assert.Zero(t, a.requests.Load(), "nothing was sent")
}

func TestEnvelopeListPagesAndPushes(t *testing.T) {
	p := newPages(t, "One", "Two", "Three")
	type Page struct {
		Results    []*Article `df:"results,collection"`
		NextCursor string     `df:"nextCursor"`
	}
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: p.URL, Path: "/articles/:id",
		Options: df.Options{PaginationField: "cursor"}})
	require.NoError(t, err)
	list, err := df.ListOf[Page](arts)
	require.NoError(t, err)
	require.NotNil(t, list.GetPage)
	assert.Equal(t, "Article.getList.push", list.Push.Name())
	for _, ep := range []*df.Endpoint[*Article]{list.Push, list.Unshift, list.Remove, list.Move} {
		assert.NotNil(t, ep)
	}
	ctrl := newController()
	ctx := context.Background()

	first, err := list.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, first.Results, 2)
	assert.Equal(t, "2", first.NextCursor)

	more, err := list.GetPage.Fetch(ctx, ctrl, map[string]string{"cursor": first.NextCursor}, nil)
	require.NoError(t, err)
	assert.Len(t, more.Results, 3, "the page is appended to the stored list")
	all, err := list.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, all.Results, 3)
	assert.Same(t, first.Results[0], all.Results[0], "records that did not change keep their pointers")
	assert.Empty(t, all.NextCursor, "the other members from the newest page")

	_, err = list.Unshift.Fetch(ctx, ctrl, nil, map[string]string{"title": "Zero"})
	require.NoError(t, err)
	all, err = list.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	titles := []string{}
	for _, a := range all.Results {
		titles = append(titles, a.Title)
	}
	assert.Equal(t, []string{"Zero", "One", "Two", "Three"}, titles)
	assert.Equal(t, int64(3), p.requests.Load(), "two pages and a POST: nothing refetched")

	// Without a PaginationField there is no GetPage.
	plain, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: p.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	noPages, err := df.ListOf[Page](plain)
	require.NoError(t, err)
	assert.Nil(t, noPages.GetPage)
}

func TestListOfRefusesAnEnvelopeWithoutACollection(t *testing.T) {
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: "http://api.test", Path: "/articles/:id"})
	require.NoError(t, err)
	type untagged struct {
		Results []*Article `df:"results"`
	}
	type ofUsers struct {
		Results []*User `df:"results,collection"`
	}
	type notAList struct {
		Results *Article `df:"results,collection"`
	}
	_, err = df.ListOf[untagged](arts)
	assert.EqualError(t, err, "df: ListOf[df_test.untagged]: no field tagged collection holds []*df_test.Article")
	_, err = df.ListOf[ofUsers](arts)
	assert.EqualError(t, err, "df: ListOf[df_test.ofUsers]: no field tagged collection holds []*df_test.Article")
	_, err = df.ListOf[notAList](arts)
	assert.EqualError(t, err, "df: df_test.notAList.Results: tagged collection, but *df_test.Article is not a slice or map of entity pointers")
}

// Publish is the body of a publish toggle.
type Publish struct {
	Published bool `df:"published"`
}

func TestTypedOptimisticResponse(t *testing.T) {
	a := newAPI(t)
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: a.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	var seen []ArticleParams
	arts, err = arts.Extend(map[string]func(o *df.Options){
		"partialUpdate": func(o *df.Options) {
			o.GetOptimisticResponse = df.Optimistic(func(snap df.Snapshot, p ArticleParams, b Publish) (*Article, error) {
				seen = append(seen, p)
				stored, err := df.Stored[Article](snap, p)
				if stored == nil || err != nil {
					return nil, df.ErrAbortOptimistic
				}
				changed := *stored
				changed.Published = b.Published
				return &changed, nil
			})
		},
	})
	require.NoError(t, err)
	patch, err := df.WithParams[ArticleParams](arts.PartialUpdate)
	require.NoError(t, err)
	get, err := df.WithParams[ArticleParams](arts.Get)
	require.NoError(t, err)
	ctrl := newController()
	ctx := context.Background()

	// Nothing stored: the optimistic response aborts, the request runs.
	_, err = patch.Fetch(ctx, ctrl, ArticleParams{ID: "2"}, Publish{true})
	require.NoError(t, err)
	assert.Equal(t, []ArticleParams{{ID: "2"}}, seen)

	before, err := get.Suspense(ctx, ctrl, ArticleParams{ID: "1"})
	require.NoError(t, err)
	require.False(t, before.Published)
	gate := make(chan struct{})
	a.mu.Lock()
	a.gate = gate
	a.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := patch.Fetch(ctx, ctrl, ArticleParams{ID: "1"}, Publish{true})
		done <- err
	}()
	assert.Equal(t, http.MethodPatch, testkit.Wait(t, a.held, "the PATCH at the server"))
	shown := get.Response(ctrl, ArticleParams{ID: "1"})
	close(gate)
	require.NoError(t, testkit.Wait(t, done, "the PATCH"))
	require.NoError(t, shown.Err)
	assert.True(t, shown.Data.Published, "applied before the server answered")
	assert.Equal(t, before.Title, shown.Data.Title, "over the stored record")
	assert.Equal(t, before.Author, shown.Data.Author)

	// A body that is not a Publish fails the mutation, naming it.
	_, err = patch.Fetch(ctx, ctrl, ArticleParams{ID: "1"}, "published")
	assert.ErrorContains(t, err, "getOptimisticResponse: body: a string cannot be read as df_test.Publish")
	_, err = patch.Fetch(ctx, ctrl, ArticleParams{ID: "1"}, map[string]string{"published": "yes"})
	assert.ErrorContains(t, err, "getOptimisticResponse: body: ")
	assert.ErrorContains(t, err, "published")
}

func TestExtendRefusesNearMissesAndAddAdds(t *testing.T) {
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: "http://api.test", Path: "/articles/:id"})
	require.NoError(t, err)
	noop := func(*df.Options) {}
	tests := []struct {
		name, meant string // meant "" is accepted, as a change or an addition
	}{
		{"partialUpdate", ""},
		{"partialupdate", "partialUpdate"},
		{"PartialUpdate", "partialUpdate"},
		{"partialUpdte", "partialUpdate"},
		{"partialUdpate", "partialUpdate"},
		{"partalUpdte", "partialUpdate"},
		{"udpate", "update"},
		{"updates", "update"},
		{"delte", "delete"},
		{"getLists", "getList"},
		{"getlist", "getList"},
		{"Get", "get"},
		{"GET", "get"},
		{"set", ""}, // three letters: only case is a typo
		{"publish", ""},
		{"getAll", ""},
		{"getPage", ""},
		{"partialUpdateDraft", ""},
		{"created", "create"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, err := arts.Extend(map[string]func(*df.Options){tc.name: noop})
			if tc.meant != "" {
				assert.EqualError(t, err, `df: Extend: the resource has no endpoint "`+tc.name+`": did you mean "`+tc.meant+`"? (Add adds an endpoint of that name)`)
				return
			}
			require.NoError(t, err)
			assert.NotNil(t, x.Rest.Endpoint(tc.name))
		})
	}

	// Add adds a name that close on purpose, and refuses a known one.
	x, err := arts.Add(map[string]func(*df.Options){"created": func(o *df.Options) { o.Path = "/articles/created" }})
	require.NoError(t, err)
	require.NotNil(t, x.Rest.Endpoint("created"))
	assert.Equal(t, "Article.created", x.Rest.Endpoint("created").Name())
	_, err = arts.Add(map[string]func(*df.Options){"update": noop})
	assert.EqualError(t, err, `df: Add: the resource has an endpoint "update" already (Extend changes it)`)
	// A name Add added is known to Extend after it.
	_, err = x.Extend(map[string]func(*df.Options){"created": noop})
	assert.NoError(t, err)
}

func TestUntypedParamsInTheWrongCaseAreNamed(t *testing.T) {
	a := newAPI(t)
	arts := articles(t, a)
	ctrl := newController()
	ctx := context.Background()
	type byGoName struct{ ID string } // no tag: the member is "id"
	type tagged struct {
		ID string `json:"ID"`
	}
	tests := []struct {
		name   string
		params any
		want   string
	}{
		{"a map", map[string]string{"ID": "1"}, `Article.get: params: no "id" for path token :id of /articles/:id, but "ID": member names are case-sensitive`},
		{"a tagged struct", tagged{"1"}, `Article.get: params: no "id" for path token :id of /articles/:id, but "ID": member names are case-sensitive`},
		{"the right name", map[string]string{"id": "1"}, ""},
		{"a Go name", byGoName{"1"}, ""},
		{"no params", nil, "Article.get: params missing path token :id for /articles/:id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := arts.Get.Suspense(ctx, ctrl, tc.params)
			if tc.want != "" {
				assert.EqualError(t, err, tc.want)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, "Hello", got.Title)
		})
	}
	assert.Equal(t, int64(1), a.requests.Load(), "only the right params were sent")
}

func TestTypedOptimisticPushShowsTheDraftAtOnce(t *testing.T) {
	p := newPages(t, "One", "Two")
	type Page struct {
		Results    []*Article `df:"results,collection"`
		NextCursor string     `df:"nextCursor"`
	}
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: p.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	// getList's optimistic response is the one its Push inherits.
	arts, err = arts.Extend(map[string]func(o *df.Options){
		"getList": func(o *df.Options) {
			o.GetOptimisticResponse = df.Optimistic(func(_ df.Snapshot, _ struct{}, draft Article) (*Article, error) {
				return &draft, nil
			})
		},
	})
	require.NoError(t, err)
	list, err := df.ListOf[Page](arts)
	require.NoError(t, err)
	ctrl := newController()
	ctx := context.Background()
	_, err = list.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)

	gate := make(chan struct{})
	p.mu.Lock()
	p.gate = gate
	p.mu.Unlock()
	done := make(chan error, 1)
	go func() {
		_, err := list.Push.Fetch(ctx, ctrl, nil, Article{Title: "Draft", Tags: []string{"new"}})
		done <- err
	}()
	testkit.Wait(t, p.held, "the POST at the server")
	shown := list.GetList.Response(ctrl, nil)
	close(gate)
	require.NoError(t, testkit.Wait(t, done, "the POST"))
	require.NoError(t, shown.Err)
	require.Len(t, shown.Data.Results, 3, "the draft is in the list before the server answers")
	draft := shown.Data.Results[2]
	assert.Equal(t, "Draft", draft.Title)
	assert.Equal(t, []string{"new"}, draft.Tags)
	assert.Empty(t, draft.ID, "no id until the server gives one")

	after, err := list.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, after.Results, 3)
	assert.Equal(t, "3", after.Results[2].ID, "the server's record replaced the draft")
	assert.Equal(t, int64(2), p.requests.Load(), "the list and the POST: nothing refetched")
}

func TestResourceGetPageAppendsToThePlainList(t *testing.T) {
	p := newPages(t, "One", "Two", "Three")
	p.plain.Store(true)
	arts, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: p.URL, Path: "/articles/:id",
		Options: df.Options{PaginationField: "cursor"}})
	require.NoError(t, err)
	require.NotNil(t, arts.GetPage)
	assert.Equal(t, arts.GetList.Name(), arts.GetPage.Name(), "a page is stored as the list")
	ctrl := newController()
	ctx := context.Background()

	first, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, first, 2)
	_, err = arts.GetPage.Fetch(ctx, ctrl, map[string]string{"cursor": "2"}, nil)
	require.NoError(t, err)
	all, err := arts.GetList.Suspense(ctx, ctrl, nil)
	require.NoError(t, err)
	require.Len(t, all, 3)
	assert.Same(t, first[0], all[0])
	assert.Equal(t, "Three", all[2].Title)
	assert.Equal(t, int64(2), p.requests.Load())

	plain, err := df.NewResource[Article](df.ResourceOptions{URLPrefix: p.URL, Path: "/articles/:id"})
	require.NoError(t, err)
	assert.Nil(t, plain.GetPage, "no PaginationField, no GetPage")
}
