package sampleapi_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

func TestTodosByUser(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	all := apitest.Decode[[]sampleapi.Todo](t, f.Do(http.MethodGet, "/todos", nil))
	require.Len(t, all, 12)
	mine := apitest.Decode[[]sampleapi.Todo](t, f.Do(http.MethodGet, "/todos?userId=2", nil))
	require.Len(t, mine, 4)
	for _, todo := range mine {
		assert.Equal(t, 2, todo.UserID)
	}
	assert.Empty(t, apitest.Decode[[]sampleapi.Todo](t, f.Do(http.MethodGet, "/todos?userId=9", nil)))
	r := f.Do(http.MethodGet, "/todos?userId=two", nil)
	assert.Equal(t, http.StatusBadRequest, r.Status)
	assert.Contains(t, string(r.Body), `is not a number`)
}

func TestTodoCreatePatchDelete(t *testing.T) {
	f := newFixture(t, sampleapi.Options{})
	r := f.Do(http.MethodPost, "/todos", map[string]any{"userId": 2, "title": "New", "id": 5})
	require.Equal(t, http.StatusCreated, r.Status)
	created := apitest.Decode[sampleapi.Todo](t, r)
	assert.Equal(t, sampleapi.Todo{ID: 101, UserID: 2, Title: "New"}, created, "the server assigns the id")

	patched := apitest.Decode[sampleapi.Todo](t, f.Do(http.MethodPatch, "/todos/101", map[string]any{"completed": true}))
	assert.Equal(t, sampleapi.Todo{ID: 101, UserID: 2, Title: "New", Completed: true}, patched)
	assert.Equal(t, http.StatusBadRequest, f.Do(http.MethodPatch, "/todos/101", map[string]any{"completed": "yes"}).Status)

	assert.Equal(t, http.StatusNoContent, f.Do(http.MethodDelete, "/todos/101", nil).Status)
	assert.Equal(t, http.StatusNotFound, f.Do(http.MethodGet, "/todos/101", nil).Status)
}
