package resources

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Article is an article: a string id, a title, a body, a published flag,
// tags, the author's user id and a creation date. Reads share it: never
// change one (see package df).
type Article struct {
	ID        string   `df:"id,pk"`
	Title     string   `df:"title"`
	Content   string   `df:"content"`
	Published bool     `df:"published"`
	Tags      []string `df:"tags"`
	// Author is the author's user id; 0 for none.
	Author int `df:"author,omitempty"`
	// CreatedAt is set by the server; zero on a draft.
	CreatedAt time.Time `df:"createdAt,omitempty"`
	// Extra keeps members the struct has no field for.
	Extra df.Unknown
}

// Articles is the article resource on /articles/:id, its endpoints typed
// (GetList reads []*Article), with optimistic push, partial update and
// delete. Rest holds the untyped endpoints.
type Articles struct {
	*df.Resource[Article]
	// Push is getList.push: POST /articles with a Draft, the created
	// article appended to every stored list (a Collection) with no update
	// function. It is optimistic: the draft shows at once under its
	// temporary id, which the server's replaces, or is taken out when the
	// server fails.
	Push *df.Endpoint[*Article]
	// PublishedByTitle is a Query over every stored article: the published
	// ones sorted by title, read with Controller.Get (see Published).
	PublishedByTitle *schema.Query
}

// ListParams are the params of the article list, the collection Push
// appends to.
var ListParams = value.Obj()

func newArticles(prefix string) (*Articles, error) {
	base, err := df.NewResource[Article](rest.ResourceOptions{URLPrefix: prefix, Path: "/articles/:id"})
	if err != nil {
		return nil, err
	}
	r, err := base.Extend(map[string]func(o *rest.Options){
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
	push, err := r.Rest.GetList.Push()
	if err != nil {
		return nil, err
	}
	// The optimistic response of a push is its body, which carries a
	// temporary id (see Draft).
	push, err = push.Extend(func(o *rest.Options) {
		o.GetOptimisticResponse = func(_ endpoint.Snapshot, _ value.Value, body any) (value.Value, error) {
			return bodyValue(body), nil
		}
	})
	if err != nil {
		return nil, err
	}
	typedPush, err := df.Wrap[*Article](push)
	if err != nil {
		return nil, err
	}
	return &Articles{Resource: r, Push: typedPush, PublishedByTitle: schema.QueryOf(schema.AllOf(r.Schema()), publishedByTitle)}, nil
}

// publishedByTitle is the Process of PublishedByTitle: the published
// articles of entries (every stored one), sorted by title, then by id.
func publishedByTitle(entries value.Value, _ []value.Value) value.Value {
	var out []value.Value
	for _, a := range entries.Elems() {
		if a.Get("published").Boolean() {
			out = append(out, a)
		}
	}
	slices.SortStableFunc(out, func(a, b value.Value) int {
		return cmp.Or(strings.Compare(a.Get("title").Str(), b.Get("title").Str()),
			schema.ComparePKs(a.Get("id").Str(), b.Get("id").Str()))
	})
	return value.Arr(out...)
}

// Published reads PublishedByTitle from ctrl's cache, with no request:
// the published articles sorted by title. The list is the same slice until
// an article changes (Controller.Get memoizes it); watch for that with
// Controller.Listen.
func (a *Articles) Published(ctrl *controller.Controller) ([]*Article, error) {
	v, err := ctrl.Get(a.PublishedByTitle)
	if err != nil {
		return nil, err
	}
	return a.GetList.Decode(v)
}

// bodyValue returns a request body as the Value the endpoints are given
// (typed bodies arrive encoded).
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

// Draft returns the body of a create: a new unpublished article with a
// temporary client-made id. The server ignores that id and assigns its
// own; until it answers, the optimistic article is stored under the
// temporary one.
func Draft(title, content string) *Article {
	return &Article{
		ID:      tempPrefix + strconv.FormatInt(tempIDs.Add(1), 10),
		Title:   title,
		Content: content,
		Tags:    []string{},
	}
}

// IsTemporary reports whether id was made by Draft: the record is not saved
// yet, so features that need its real id must wait.
func IsTemporary(id string) bool { return strings.HasPrefix(id, tempPrefix) }

// ID returns the params naming one record.
func ID(id string) map[string]string { return map[string]string{"id": id} }

// UserID returns the params naming one user.
func UserID(id int) map[string]string { return ID(strconv.Itoa(id)) }
