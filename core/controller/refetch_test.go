package controller_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/core/value/valuetest"
)

// changeTitle returns body, a list of articles, with the title of the
// article at index k prefixed by mark: the same text but for one record.
func changeTitle(t testing.TB, body string, k int, mark string) string {
	t.Helper()
	at := 0
	for range k + 1 {
		i := strings.Index(body[at:], `"title":"`)
		require.GreaterOrEqual(t, i, 0)
		at += i + len(`"title":"`)
	}
	return body[:at] + mark + body[at:]
}

// TestRefetchOneChangedRebuildsOne is the React bench's
// invalidate-and-resolve (issue 24): 1,000 articles stored and read, the
// server changes one title, the list is invalidated and fetched again.
// The read after it rebuilds only the changed article: every other
// article, and the changed one's author, keep their objects (a rebuilt
// entity is a new value, so the count of articles that are not the same
// value is the count of entities denormalized again), whether the
// response comes as text (the store's fast path sees each unchanged
// record's source text) or as a value with no text.
func TestRefetchOneChangedRebuildsOne(t *testing.T) {
	const n, changed = 1000, 417
	list, _, _ := benchSchema()
	body := string(valuetest.Articles(n, 1))
	for _, tc := range []struct {
		name string
		text bool // through a REST transport, as text
		fast bool // the store's reapply of unchanged text on
	}{
		{"text", true, true},
		{"text without reapply", true, false},
		{"value", false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &bodyTransport{bodies: map[string]string{"/articles": body}}
			var ep endpoint.Endpoint
			if tc.text {
				rep, err := rest.New(rest.Options{URLPrefix: "http://x.test", Path: "/articles", Name: "list", Schema: list, Transport: tr})
				require.NoError(t, err)
				ep = rep
			} else {
				ep = &funcEndpoint{name: "list", spec: endpoint.Spec{Name: "list", Schema: list},
					fetch: func(context.Context, value.Value, any) (value.Value, error) {
						tr.mu.Lock()
						defer tr.mu.Unlock()
						return value.Parse([]byte(tr.bodies["/articles"]))
					}}
			}
			at := int64(1_000)
			c := controller.New(controller.Options{Now: func() time.Time { at++; return time.UnixMilli(at) }})
			defer c.Close()
			controller.SetReapply(c, tc.fast)
			ctx := context.Background()
			_, err := c.Fetch(ctx, ep, value.Obj(), nil)
			require.NoError(t, err)
			before := c.GetResponse(ep, value.Obj())
			require.NoError(t, before.Err)
			require.Equal(t, n, before.Data.Len())

			tr.set("/articles", changeTitle(t, body, changed, "new "))
			require.NoError(t, c.Invalidate(ep, value.Obj()))
			_, err = c.Fetch(ctx, ep, value.Obj(), nil)
			require.NoError(t, err)
			after := c.GetResponse(ep, value.Obj())
			require.NoError(t, after.Err)
			require.Equal(t, n, after.Data.Len())

			old, got := before.Data.Elems(), after.Data.Elems()
			var rebuilt []int
			for i := range got {
				if !value.Same(old[i], got[i]) {
					rebuilt = append(rebuilt, i)
				}
			}
			assert.Equal(t, []int{changed}, rebuilt, "only the changed article is denormalized again")
			assert.True(t, strings.HasPrefix(got[changed].Get("title").Str(), "new "), "the new title is read")
			assert.True(t, value.Same(old[changed].Get("author"), got[changed].Get("author")), "the changed article's unchanged author keeps its object")
			assert.False(t, value.Same(before.Data, after.Data), "the list holds a new article: a new list")
		})
	}
}
