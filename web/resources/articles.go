package resources

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Article is an article: a string id, a title, a body, a published flag,
// tags, the author's user id and a creation date.
var Article = &schema.Entity{
	Key: "Article",
	Defaults: value.MustParse(`{"id":null,"title":"","content":"","published":false,` +
		`"tags":[],"author":null,"createdAt":null}`),
	Schema: map[string]schema.Schema{"createdAt": schema.Date},
}

// Articles is the article resource on /articles/:id, with optimistic
// create, partial update and delete.
type Articles struct {
	*rest.Resource
}

// ListParams are the params of the article list, the key that create
// appends to.
var ListParams = value.Obj()

func newArticles(prefix string) (*Articles, error) {
	base, err := rest.NewResource(rest.ResourceOptions{
		URLPrefix: prefix,
		Path:      "/articles/:id",
		Schema:    Article,
	})
	if err != nil {
		return nil, err
	}
	listKey, err := base.GetList.Key(ListParams)
	if err != nil {
		return nil, err
	}
	r, err := base.Extend(map[string]func(o *rest.Options){
		// The optimistic response of a create is its body, which carries a
		// temporary id (see Draft); the new pk is appended to the list.
		"create": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
				return bodyValue(body), nil
			}
			o.Update = func(newPK, _ value.Value) (map[string]func(value.Value) value.Value, error) {
				return map[string]func(value.Value) value.Value{
					listKey: func(pks value.Value) value.Value {
						return value.Arr(append(append([]value.Value(nil), pks.Elems()...), newPK)...)
					},
				}, nil
			}
		},
		// A partial update is the params' id merged with the changed fields.
		"partialUpdate": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, body any) (value.Value, error) {
				return bodyValue(body).With("id", params.Get("id")), nil
			}
		},
		// A delete is known from its params alone.
		"delete": func(o *rest.Options) {
			o.GetOptimisticResponse = func(_ endpoint.Snapshot, params value.Value, _ any) (value.Value, error) {
				return params, nil
			}
		},
	})
	if err != nil {
		return nil, err
	}
	return &Articles{Resource: r}, nil
}

// bodyValue returns a request body as the Value the endpoints are given.
func bodyValue(body any) value.Value {
	if v, ok := body.(value.Value); ok {
		return v
	}
	return value.Obj()
}

// tempIDs numbers temporary ids.
var tempIDs atomic.Int64

// tempPrefix starts every temporary id.
const tempPrefix = "tmp-"

// Draft returns the body of a create: the fields of a new unpublished
// article with a temporary client-made id. The server ignores that id and
// assigns its own; until it answers, the optimistic article is stored under
// the temporary one.
func Draft(title, content string) value.Value {
	id := tempPrefix + strconv.FormatInt(tempIDs.Add(1), 10)
	return value.Obj(
		value.M("id", value.Str(id)),
		value.M("title", value.Str(title)),
		value.M("content", value.Str(content)),
		value.M("published", value.False),
		value.M("tags", value.Arr()),
	)
}

// IsTemporary reports whether id was made by Draft: the record is not saved
// yet, so features that need its real id must wait.
func IsTemporary(id string) bool { return strings.HasPrefix(id, tempPrefix) }

// ID returns the params naming one record.
func ID(id string) value.Value { return value.Obj(value.M("id", value.Str(id))) }
