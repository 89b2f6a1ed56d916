package inspect_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/inspect"
)

func TestLabel(t *testing.T) {
	const prefix = "http://127.0.0.1:8080/rest"
	cases := []struct {
		name, key, prefix, want string
	}{
		{"get, prefix left out", "getPost GET http://127.0.0.1:8080/rest/posts/1", prefix, "getPost /posts/1"},
		{"other methods shown", "createPost POST http://127.0.0.1:8080/rest/posts", prefix, "createPost POST /posts"},
		{"page token is the link it names", "getPosts GET http://127.0.0.1:8080/rest/posts?page=%2Frest%2Fposts%3Fpage%3D2", prefix, "getPosts /posts?page=2"},
		{"absolute page token", "getPosts GET http://127.0.0.1:8080/rest/posts?page=http%3A%2F%2F127.0.0.1%3A8080%2Frest%2Fposts%3Fpage%3D3", prefix, "getPosts /posts?page=3"},
		{"without prefix: no scheme and host", "getPosts GET http://h:1/rest/posts?page=%2Frest%2Fposts%3Fpage%3D2", "", "getPosts /rest/posts?page=2"},
		{"query unescaped", "search GET http://h/s?q=a%20b+c&n=1", "", "search /s?q=a b c&n=1"},
		{"a token to another path stays", "x GET http://h/a?next=%2Fb%3Fp%3D2", "", "x /a?next=/b?p=2"},
		{"relative URL", "x GET /api/a", "", "x /api/a"},
		{"broken escape kept", "x GET http://h/a?q=%zz", "", "x /a?q=%zz"},
		{"not a REST key", `book {"id":"1"}`, "", `book {"id":"1"}`},
		{"one word", "book", "", "book"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, inspect.Label(tc.key, tc.prefix), tc.name)
	}
}
