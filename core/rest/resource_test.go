package rest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

func TestResource(t *testing.T) {
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: "http://h", Path: "/articles/:id", Schema: article})
	require.NoError(t, err)
	params := obj(`{"id":5}`)
	tests := []struct {
		name   string
		e      *rest.Endpoint
		method string
		url    string
		schema schema.Schema
	}{
		{"get", r.Get, "GET", "http://h/articles/5", article},
		{"getList", r.GetList, "GET", "http://h/articles", schema.ArrayOf(article)},
		{"create", r.Create, "POST", "http://h/articles", article},
		{"update", r.Update, "PUT", "http://h/articles/5", article},
		{"partialUpdate", r.PartialUpdate, "PATCH", "http://h/articles/5", article},
		{"delete", r.Delete, "DELETE", "http://h/articles/5", schema.InvalidateOf(article)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotNil(t, tt.e)
			assert.Same(t, tt.e, r.Endpoint(tt.name))
			assert.Equal(t, "Article."+tt.name, tt.e.Name())
			assert.Equal(t, tt.method, tt.e.Method())
			p := params
			if tt.name == "getList" || tt.name == "create" {
				p = value.Undef
			}
			u, err := tt.e.URL(p)
			require.NoError(t, err)
			assert.Equal(t, tt.url, u)
			if c, ok := tt.e.Spec().Schema.(*schema.Collection); ok {
				// getList's list is a Collection, stored per its args.
				assert.Equal(t, tt.schema, c.Of)
			} else {
				assert.Equal(t, tt.schema, tt.e.Spec().Schema)
			}
			assert.Equal(t, tt.method != "GET", tt.e.Spec().SideEffect)
		})
	}
	assert.Equal(t, []string{"get", "getList", "create", "update", "partialUpdate", "delete"}, r.Names())
	assert.Nil(t, r.Endpoint("nope"))
}

func TestResourceSharedOptions(t *testing.T) {
	srv := jsonServer(t, 200, `[]`)
	r, err := rest.NewResource(rest.ResourceOptions{
		URLPrefix: srv.URL,
		Path:      "/users/:userId/posts/:id",
		Schema:    article,
		Name:      "Post",
		Options: rest.Options{
			Transport: srv.transport(),
			Path:      "/ignored", Method: "PUT", Name: "ignored",
			GetHeaders: func(ctx context.Context, h rest.Header) (rest.Header, error) {
				h.Set("Authorization", "Bearer t")
				return h, nil
			},
		},
	})
	require.NoError(t, err)
	assert.Equal(t, "Post.getList", r.GetList.Name())
	_, err = r.GetList.Fetch(context.Background(), obj(`{"userId":1,"sort":"new"}`), nil)
	require.NoError(t, err)
	got := srv.last(t)
	assert.Equal(t, "GET", got.Method)
	assert.Equal(t, "/users/1/posts", got.Path)
	assert.Equal(t, "sort=new", got.RawQuery)
	assert.Equal(t, "Bearer t", got.Header.Get("Authorization"))
}

func TestResourceKeysDoNotCollide(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: obj(`{"id":null}`)}
	a, err := rest.NewResource(rest.ResourceOptions{Path: "/things/:id", Schema: article})
	require.NoError(t, err)
	u, err := rest.NewResource(rest.ResourceOptions{Path: "/things/:id", Schema: user})
	require.NoError(t, err)
	ka, _ := a.Get.Key(obj(`{"id":1}`))
	ku, _ := u.Get.Key(obj(`{"id":1}`))
	assert.NotEqual(t, ka, ku)
	kg, _ := a.Get.Key(obj(`{"id":1}`))
	kp, _ := a.PartialUpdate.Key(obj(`{"id":1}`))
	assert.NotEqual(t, kg, kp)
}

func TestResourceRequests(t *testing.T) {
	srv := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case "DELETE":
			w.WriteHeader(http.StatusNoContent)
		case "POST":
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte(`{"id":"7","title":"new"}`))
		default:
			w.Write([]byte(`{"id":"5","title":"t","published":true}`))
		}
	})
	r, err := rest.NewResource(rest.ResourceOptions{URLPrefix: srv.URL, Path: "/articles/:id", Schema: article,
		Options: rest.Options{Transport: srv.transport()}})
	require.NoError(t, err)
	ctx := context.Background()

	v, err := r.Create.Fetch(ctx, value.Undef, obj(`{"title":"new"}`))
	require.NoError(t, err)
	assert.Equal(t, "7", v.Get("id").Str())
	assert.Equal(t, seen{Method: "POST", Path: "/articles", Body: `{"title":"new"}`}, stripHeader(srv.last(t)))

	_, err = r.PartialUpdate.Fetch(ctx, obj(`{"id":"5"}`), obj(`{"published":true}`))
	require.NoError(t, err)
	assert.Equal(t, seen{Method: "PATCH", Path: "/articles/5", Body: `{"published":true}`}, stripHeader(srv.last(t)))

	_, err = r.Update.Fetch(ctx, obj(`{"id":"5"}`), obj(`{"title":"t"}`))
	require.NoError(t, err)
	assert.Equal(t, "PUT", srv.last(t).Method)

	t.Run("empty delete response falls back to the params", func(t *testing.T) {
		v, err := r.Delete.Fetch(ctx, obj(`{"id":"5"}`), nil)
		require.NoError(t, err)
		assert.Equal(t, `{"id":"5"}`, v.JSON())
		assert.Equal(t, seen{Method: "DELETE", Path: "/articles/5"}, stripHeader(srv.last(t)))
		n, err := schema.Normalize(r.Delete.Spec().Schema, v)
		require.NoError(t, err)
		require.Len(t, n.Entities, 1)
		assert.True(t, n.Entities[0].Deleted)
		assert.Equal(t, "5", n.Entities[0].PK)
	})
	t.Run("delete with a body keeps it", func(t *testing.T) {
		body := jsonServer(t, 200, `{"id":"9"}`)
		del, err := r.Delete.Extend(func(o *rest.Options) { o.URLPrefix, o.Transport = body.URL, body.transport() })
		require.NoError(t, err)
		v, err := del.Fetch(ctx, obj(`{"id":"5"}`), nil)
		require.NoError(t, err)
		assert.Equal(t, `{"id":"9"}`, v.JSON())
	})
	t.Run("empty object delete response falls back too", func(t *testing.T) {
		body := jsonServer(t, 200, `{}`)
		del, err := r.Delete.Extend(func(o *rest.Options) { o.URLPrefix, o.Transport = body.URL, body.transport() })
		require.NoError(t, err)
		v, err := del.Fetch(ctx, obj(`{"id":"5"}`), nil)
		require.NoError(t, err)
		assert.Equal(t, `{"id":"5"}`, v.JSON())
	})
}

func stripHeader(s seen) seen { s.Header = nil; return s }

func TestResourceExtend(t *testing.T) {
	r, err := rest.NewResource(rest.ResourceOptions{Path: "/users/:id", Schema: article, Name: "User"})
	require.NoError(t, err)
	ext, err := r.Extend(map[string]func(*rest.Options){
		"getList": func(o *rest.Options) {
			o.Schema = schema.ObjectOf(schema.Nested("results", schema.ArrayOf(article)), schema.Default("nextPage", value.Str("")))
		},
		"makeManager": func(o *rest.Options) {
			o.Path = "/users/:id/make_manager"
			o.Method = "POST"
		},
		"current": func(o *rest.Options) { o.Path = "/current_user/" },
	})
	require.NoError(t, err)

	assert.Equal(t, []string{"get", "getList", "create", "update", "partialUpdate", "delete", "current", "makeManager"}, ext.Names())
	assert.Equal(t, []string{"get", "getList", "create", "update", "partialUpdate", "delete"}, r.Names(), "original unchanged")
	assert.Nil(t, r.Endpoint("makeManager"))
	assert.IsType(t, &schema.Collection{}, r.GetList.Spec().Schema, "original unchanged")
	assert.Equal(t, schema.ArrayOf(article), r.GetList.Spec().Schema.(*schema.Collection).Of)
	assert.IsType(t, &schema.Object{}, ext.GetList.Spec().Schema)
	assert.Same(t, ext.GetList, ext.Endpoint("getList"))
	assert.Same(t, r.Get, ext.Get, "untouched endpoints are shared")

	mm := ext.Endpoint("makeManager")
	require.NotNil(t, mm)
	assert.Equal(t, "User.makeManager", mm.Name())
	assert.Equal(t, "POST", mm.Method())
	assert.Equal(t, article, mm.Spec().Schema, "a new endpoint starts from get")
	u, err := mm.URL(obj(`{"id":3}`))
	require.NoError(t, err)
	assert.Equal(t, "/users/3/make_manager", u)
	k, err := ext.Endpoint("current").Key(value.NullV)
	require.NoError(t, err)
	assert.Equal(t, "User.current GET /current_user/", k)

	_, err = r.Extend(map[string]func(*rest.Options){"get": func(o *rest.Options) { o.Path = "relative" }})
	assert.ErrorContains(t, err, "rest: resource User: extend get: ")
}

func TestResourceValidation(t *testing.T) {
	_, err := rest.NewResource(rest.ResourceOptions{Path: "/a/:id"})
	assert.ErrorContains(t, err, "entity is nil")
	_, err = rest.NewResource(rest.ResourceOptions{Path: "a/:id", Schema: article})
	assert.ErrorContains(t, err, `must start with "/"`)
	_, err = rest.NewResource(rest.ResourceOptions{Path: "/a/:id", Schema: &schema.Entity{Key: "X"}})
	assert.ErrorContains(t, err, "defaults must be an object")
}

func TestLegacyResource(t *testing.T) {
	legacy := &schema.Entity{Key: "LegacyArticle", Defaults: obj(`{"id":null,"content":"","author":null,"contributors":[]}`)}
	for _, root := range []string{"http://test.com/article/", "http://test.com/article"} {
		t.Run(root, func(t *testing.T) {
			r, err := rest.LegacyResource(root, legacy)
			require.NoError(t, err)
			assert.Equal(t, []string{"detail", "list", "create", "update", "partialUpdate", "delete"}, r.Names())
			assert.Same(t, r.Get, r.Endpoint("detail"))
			assert.Same(t, r.GetList, r.Endpoint("list"))
			assert.Same(t, r.GetList, r.Endpoint("listShape"))
			for _, tt := range []struct {
				name, method, url string
				params            value.Value
				schema            schema.Schema
			}{
				{"detail", "GET", "http://test.com/article/5", obj(`{"id":5}`), legacy},
				{"list", "GET", root + "?author=2", obj(`{"author":2}`), schema.ArrayOf(legacy)},
				{"create", "POST", root, value.Undef, legacy},
				{"update", "PUT", "http://test.com/article/5", obj(`{"id":5}`), legacy},
				{"partialUpdate", "PATCH", "http://test.com/article/5", obj(`{"id":5}`), legacy},
				{"delete", "DELETE", "http://test.com/article/5", obj(`{"id":5}`), schema.InvalidateOf(legacy)},
			} {
				e := r.Endpoint(tt.name)
				require.NotNil(t, e, tt.name)
				assert.Equal(t, "LegacyArticle."+tt.name, e.Name())
				assert.Equal(t, tt.method, e.Method(), tt.name)
				u, err := e.URL(tt.params)
				require.NoError(t, err, tt.name)
				assert.Equal(t, tt.url, u, tt.name)
				assert.Equal(t, tt.schema, e.Spec().Schema, tt.name)
			}
		})
	}
	t.Run("pk field names the token", func(t *testing.T) {
		slug := &schema.Entity{Key: "Page", PK: "slug", Defaults: obj(`{"slug":""}`)}
		r, err := rest.LegacyResource("/pages/", slug)
		require.NoError(t, err)
		u, err := r.Get.URL(obj(`{"slug":"about"}`))
		require.NoError(t, err)
		assert.Equal(t, "/pages/about", u)
	})
}
