package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/web/api"
)

const jsonType = "application/json; charset=utf-8"

// TestReadRoutes checks status, content type and shape of every read route.
func TestReadRoutes(t *testing.T) {
	f := newFixture(t, api.Options{})
	tests := []struct {
		path   string
		status int
		check  func(t *testing.T, r response)
	}{
		{"/comments", 200, func(t *testing.T, r response) {
			cs := decode[[]api.Comment](t, r)
			require.Len(t, cs, 30)
			for i, c := range cs {
				assert.Equal(t, i+1, c.ID)
				assert.NotZero(t, c.PostID)
				assert.Contains(t, c.Email, "@")
				assert.Contains(t, c.Body, "\n", "comment bodies have line breaks")
			}
		}},
		{"/comments?postId=2", 200, func(t *testing.T, r response) {
			cs := decode[[]api.Comment](t, r)
			require.Len(t, cs, 5)
			for _, c := range cs {
				assert.Equal(t, 2, c.PostID)
			}
		}},
		{"/comments/7", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.Equal(t, float64(7), m["id"])
			assert.ElementsMatch(t, []string{"postId", "id", "name", "email", "body"}, keys(m))
		}},
		{"/comments/999", 404, func(t *testing.T, r response) {
			assert.Equal(t, "comment 999 not found", errorMessage(t, r))
		}},
		{"/wrapped/comments", 200, func(t *testing.T, r response) {
			w := decode[struct{ Data []api.Comment }](t, r)
			assert.Len(t, w.Data, 30)
		}},
		{"/wrapped/comments/3", 200, func(t *testing.T, r response) {
			w := decode[map[string]api.Comment](t, r)
			assert.Equal(t, []string{"data"}, keys(w))
			assert.Equal(t, 3, w["data"].ID)
		}},
		{"/profiles", 200, func(t *testing.T, r response) {
			ps := decode[[]api.Profile](t, r)
			require.Len(t, ps, 8)
			assert.NotEmpty(t, ps[0].FullName)
			assert.NotEmpty(t, ps[0].Bio)
		}},
		{"/profiles/2", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.Equal(t, "2", m["id"], "profile ids are strings")
		}},
		{"/profiles/99", 404, nil},
		{"/current_user/", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.ElementsMatch(t, []string{"id", "name", "email", "isManager"}, keys(m))
			assert.Equal(t, float64(1), m["id"])
			assert.Equal(t, false, m["isManager"])
		}},
		{"/current_user", 200, nil},
		{"/users", 200, func(t *testing.T, r response) {
			us := decode[[]api.User](t, r)
			require.Len(t, us, 10)
			assert.True(t, us[1].IsManager)
		}},
		{"/users/4", 200, func(t *testing.T, r response) {
			assert.Equal(t, 4, decode[api.User](t, r).ID)
		}},
		{"/users/0", 404, nil},
		{"/articles", 200, func(t *testing.T, r response) {
			as := decode[[]api.Article](t, r)
			require.Len(t, as, 24)
			for i, a := range as {
				assert.Equal(t, i+1, atoi(t, a.ID))
				assert.NotEmpty(t, a.Tags)
				assert.NotNil(t, a.Author)
			}
		}},
		{"/articles/1", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.Equal(t, "1", m["id"], "article ids are strings")
			assert.ElementsMatch(t, []string{"id", "title", "content", "published", "tags", "author", "createdAt"}, keys(m))
			assert.Equal(t, "2024-03-01T09:00:00.000Z", m["createdAt"])
		}},
		{"/articles/999", 404, func(t *testing.T, r response) {
			assert.Equal(t, "article 999 not found", errorMessage(t, r))
		}},
		{"/api/count", 200, func(t *testing.T, r response) {
			c := decode[api.Count](t, r)
			assert.Equal(t, api.Count{Count: 0, UpdatedAt: "2025-06-10T15:30:00.000Z"}, c)
		}},
		{"/posts", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.Nil(t, m["prevPage"])
			assert.Equal(t, "/posts?page=2", m["nextPage"])
		}},
		{"/posts/23", 200, func(t *testing.T, r response) {
			p := decode[api.Post](t, r)
			assert.Equal(t, 23, p.ID)
			assert.NotZero(t, p.UserID)
		}},
		{"/posts/24", 404, nil},
		{"/api/birthdays/", 200, func(t *testing.T, r response) {
			assert.Len(t, decode[[]api.Birthday](t, r), 12)
		}},
		{"/api/birthdays", 200, nil},
		{"/api/birthdays/5", 200, func(t *testing.T, r response) {
			m := decode[map[string]any](t, r)
			assert.ElementsMatch(t, []string{"id", "name", "image", "source", "date"}, keys(m))
			assert.Equal(t, "5", m["id"])
		}},
		{"/api/birthdays/99", 404, nil},
		{"/api/birthdays/upcoming/", 200, func(t *testing.T, r response) {
			u := decode[api.UpcomingBirthdays](t, r)
			assert.Len(t, u.WithinSevenDays, 4)
			assert.Len(t, u.WithinThirtyDays, 4)
		}},
		{"/api/birthdays/upcoming", 200, nil},
		{"/no/such/route", 404, func(t *testing.T, r response) {
			assert.Equal(t, "no route for GET /no/such/route", errorMessage(t, r))
		}},
	}
	for _, tt := range tests {
		t.Run(strings.TrimPrefix(tt.path, "/"), func(t *testing.T) {
			r := f.do(http.MethodGet, tt.path, nil)
			require.Equal(t, tt.status, r.status, "body: %s", r.body)
			assert.Equal(t, jsonType, r.contentType())
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}
