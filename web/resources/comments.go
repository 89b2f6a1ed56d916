package resources

import (
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Comment is a comment on a post.
var Comment = &schema.Entity{
	Key:      "Comment",
	Defaults: value.MustParse(`{"postId":null,"id":null,"name":"","email":"","body":""}`),
}

// Comments holds the two shapes of the comment list, which normalize into
// the same Comment entities.
type Comments struct {
	// List is GET /comments: a bare array; params {postId} filter it.
	List *rest.Endpoint
	// Wrapped is GET /wrapped/comments: {data: [comment...]}.
	Wrapped *rest.Endpoint
}

func newComments(prefix string) (*Comments, error) {
	list, err := rest.New(rest.Options{URLPrefix: prefix, Path: "/comments", Name: "getComments", Schema: schema.ArrayOf(Comment)})
	if err != nil {
		return nil, err
	}
	wrapped, err := rest.New(rest.Options{
		URLPrefix: prefix,
		Path:      "/wrapped/comments",
		Name:      "getWrappedComments",
		Schema:    schema.ObjectOf(schema.Nested("data", schema.ArrayOf(Comment))),
	})
	if err != nil {
		return nil, err
	}
	return &Comments{List: list, Wrapped: wrapped}, nil
}
