package sampleapi_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// TestReadRoutes checks status, content type and shape of every read route.
func TestReadRoutes(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	f.CheckReads(t, []apitest.Read{
		{Path: "/comments", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			cs := apitest.Decode[[]sampleapi.Comment](t, r)
			require.Len(t, cs, 30)
			for i, c := range cs {
				assert.Equal(t, i+1, c.ID)
				assert.NotZero(t, c.PostID)
				assert.Contains(t, c.Email, "@")
				assert.Contains(t, c.Body, "\n", "comment bodies have line breaks")
			}
		}},
		{Path: "/comments?postId=2", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			cs := apitest.Decode[[]sampleapi.Comment](t, r)
			require.Len(t, cs, 5)
			for _, c := range cs {
				assert.Equal(t, 2, c.PostID)
			}
		}},
		{Path: "/comments/7", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.Equal(t, float64(7), m["id"])
			assert.ElementsMatch(t, []string{"postId", "id", "name", "email", "body"}, keys(m))
		}},
		{Path: "/comments/999", Status: 404, Check: func(t *testing.T, r apitest.Response) {
			assert.Equal(t, "comment 999 not found", apitest.ErrorMessage(t, r))
		}},
		{Path: "/wrapped/comments", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			w := apitest.Decode[struct{ Data []sampleapi.Comment }](t, r)
			assert.Len(t, w.Data, 30)
		}},
		{Path: "/wrapped/comments/3", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			w := apitest.Decode[map[string]sampleapi.Comment](t, r)
			assert.Equal(t, []string{"data"}, keys(w))
			assert.Equal(t, 3, w["data"].ID)
		}},
		{Path: "/profiles", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			ps := apitest.Decode[[]sampleapi.Profile](t, r)
			require.Len(t, ps, 8)
			assert.NotEmpty(t, ps[0].FullName)
			assert.NotEmpty(t, ps[0].Bio)
		}},
		{Path: "/profiles/2", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.Equal(t, "2", m["id"], "profile ids are strings")
		}},
		{Path: "/profiles/99", Status: 404},
		{Path: "/current_user/", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.ElementsMatch(t, []string{"id", "name", "email", "isManager"}, keys(m))
			assert.Equal(t, float64(1), m["id"])
			assert.Equal(t, false, m["isManager"])
		}},
		{Path: "/current_user", Status: 200},
		{Path: "/users", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			us := apitest.Decode[[]sampleapi.User](t, r)
			require.Len(t, us, 10)
			assert.True(t, us[1].IsManager)
		}},
		{Path: "/users/4", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			assert.Equal(t, 4, apitest.Decode[sampleapi.User](t, r).ID)
		}},
		{Path: "/users/0", Status: 404},
		{Path: "/articles", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			as := apitest.Decode[[]sampleapi.Article](t, r)
			require.Len(t, as, 24)
			for i, a := range as {
				assert.Equal(t, i+1, atoi(t, a.ID))
				assert.NotEmpty(t, a.Tags)
				assert.NotNil(t, a.Author)
			}
		}},
		{Path: "/articles/1", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.Equal(t, "1", m["id"], "article ids are strings")
			assert.ElementsMatch(t, []string{"id", "title", "content", "published", "tags", "author", "createdAt"}, keys(m))
			assert.Equal(t, "2024-03-01T09:00:00.000Z", m["createdAt"])
		}},
		{Path: "/articles/999", Status: 404, Check: func(t *testing.T, r apitest.Response) {
			assert.Equal(t, "article 999 not found", apitest.ErrorMessage(t, r))
		}},
		{Path: "/api/count", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			c := apitest.Decode[sampleapi.Count](t, r)
			assert.Equal(t, sampleapi.Count{Count: 0, UpdatedAt: "2025-06-10T15:30:00.000Z"}, c)
		}},
		{Path: "/posts", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.Nil(t, m["prevPage"])
			assert.Equal(t, "/posts?page=2", m["nextPage"])
		}},
		{Path: "/posts/23", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			p := apitest.Decode[sampleapi.Post](t, r)
			assert.Equal(t, 23, p.ID)
			assert.NotZero(t, p.UserID)
		}},
		{Path: "/posts/24", Status: 404},
		{Path: "/api/birthdays/", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			assert.Len(t, apitest.Decode[[]sampleapi.Birthday](t, r), 12)
		}},
		{Path: "/api/birthdays", Status: 200},
		{Path: "/api/birthdays/5", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			m := apitest.Decode[map[string]any](t, r)
			assert.ElementsMatch(t, []string{"id", "name", "image", "source", "date"}, keys(m))
			assert.Equal(t, "5", m["id"])
		}},
		{Path: "/api/birthdays/99", Status: 404},
		{Path: "/api/birthdays/upcoming/", Status: 200, Check: func(t *testing.T, r apitest.Response) {
			u := apitest.Decode[sampleapi.UpcomingBirthdays](t, r)
			assert.Len(t, u.WithinSevenDays, 4)
			assert.Len(t, u.WithinThirtyDays, 4)
		}},
		{Path: "/api/birthdays/upcoming", Status: 200},
		{Path: "/no/such/route", Status: 404, Check: func(t *testing.T, r apitest.Response) {
			assert.Equal(t, "no route for GET /no/such/route", apitest.ErrorMessage(t, r))
		}},
	})
}
