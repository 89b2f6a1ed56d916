package resources

import (
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
)

// Comment is a comment on a post.
type Comment struct {
	PostID int    `df:"postId"`
	ID     int    `df:"id,pk"`
	Name   string `df:"name"`
	Email  string `df:"email"`
	Body   string `df:"body"` // several lines separated by "\n"
}

// WrappedComments is the body of GET /wrapped/comments.
type WrappedComments struct {
	Data []*Comment `df:"data"`
}

// Comments holds the two shapes of the comment list, which normalize into
// the same Comment entities.
type Comments struct {
	// List is GET /comments: a bare array; params {postId} filter it.
	List *df.Endpoint[[]*Comment]
	// Wrapped is GET /wrapped/comments: {data: [comment...]}.
	Wrapped *df.Endpoint[*WrappedComments]
}

func newComments(prefix string) (*Comments, error) {
	list, err := typed[[]*Comment](rest.Options{URLPrefix: prefix, Path: "/comments", Name: "getComments"})
	if err != nil {
		return nil, err
	}
	wrapped, err := typed[*WrappedComments](rest.Options{URLPrefix: prefix, Path: "/wrapped/comments", Name: "getWrappedComments"})
	if err != nil {
		return nil, err
	}
	return &Comments{List: list, Wrapped: wrapped}, nil
}

// typed returns the endpoint of o whose result is R, its schema that of R
// (df.SchemaOf).
func typed[R any](o rest.Options) (*df.Endpoint[R], error) {
	s, err := df.SchemaOf[R]()
	if err != nil {
		return nil, err
	}
	o.Schema = s
	ep, err := rest.New(o)
	if err != nil {
		return nil, err
	}
	return df.Wrap[R](ep)
}
