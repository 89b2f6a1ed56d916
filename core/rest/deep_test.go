package rest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestDeepJSONIsRefusedNotText: valid JSON nested deeper than the parser
// follows (10,000 arrays) is refused with a NetworkError that names the
// endpoint and the depth, with or without a schema. An endpoint without a
// schema takes a body that is not JSON as text, but this body is JSON: its
// text must never come back as if it were the data.
func TestDeepJSONIsRefusedNotText(t *testing.T) {
	deep := strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000)
	cases := []struct {
		name   string
		schema schema.Schema
		body   string
	}{
		{"no schema, deep array", nil, deep},
		{"no schema, deep inside an object", nil, `{"id":1,"nested":` + deep + `}`},
		{"entity schema", article, `{"id":1,"title":` + deep + `}`},
		{"no schema, just past the limit", nil, strings.Repeat("[", value.MaxDepth+1) + strings.Repeat("]", value.MaxDepth+1)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := jsonServer(t, 200, c.body)
			e := newEndpoint(t, s, rest.Options{Path: "/deep", Name: "getDeep", Schema: c.schema})
			v, err := e.Fetch(context.Background(), value.Undef, nil)
			require.Error(t, err, "got %s %.40q", v.Kind(), v.Str())
			assert.True(t, errors.Is(err, value.ErrTooDeep))
			var ne *rest.NetworkError
			require.ErrorAs(t, err, &ne)
			assert.Equal(t, 400, ne.Status)
			assert.Contains(t, err.Error(), "getDeep: GET ")
			assert.Contains(t, err.Error(), "nesting deeper than 1000 levels")
		})
	}

	t.Run("at the limit it parses", func(t *testing.T) {
		body := strings.Repeat("[", value.MaxDepth) + strings.Repeat("]", value.MaxDepth)
		s := jsonServer(t, 200, body)
		e := newEndpoint(t, s, rest.Options{Path: "/deep", Name: "getDeep"})
		v, err := e.Fetch(context.Background(), value.Undef, nil)
		require.NoError(t, err)
		assert.Equal(t, value.Array, v.Kind())
		assert.Equal(t, body, v.JSON())
	})
	t.Run("text that is not JSON is still text without a schema", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "[[[ not json")
		})
		e := newEndpoint(t, s, rest.Options{Path: "/deep", Name: "getDeep"})
		v, err := e.Fetch(context.Background(), value.Undef, nil)
		require.NoError(t, err)
		assert.Equal(t, "[[[ not json", v.Str())
	})
	t.Run("unless it says it is JSON", func(t *testing.T) {
		s := jsonServer(t, 200, "[[[ not json")
		e := newEndpoint(t, s, rest.Options{Path: "/deep", Name: "getDeep"})
		_, err := e.Fetch(context.Background(), value.Undef, nil)
		var ne *rest.NetworkError
		require.ErrorAs(t, err, &ne)
		assert.Equal(t, 400, ne.Status)
	})
}
