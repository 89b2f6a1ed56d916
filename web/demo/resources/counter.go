package resources

import (
	"time"

	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// Count is the counter as read: the count and the time of the write that
// made it.
type Count struct {
	Count     int       `df:"count"`
	UpdatedAt time.Time `df:"updatedAt"`
}

// CountEntity is the singleton counter. Its updatedAt orders writes: a response
// older than the stored count is discarded, so increments that resolve out
// of order cannot move the count backwards. Since updatedAt decides, the
// order in which requests were started does not (ShouldReorder is false):
// with random latency, a request started earlier may be applied later by
// the server and carry the higher count.
var CountEntity = &schema.Entity{
	Key:      "Count",
	PKFunc:   func(_, _ value.Value, _ string, _ value.Value) (string, bool, error) { return "SINGLETON", true, nil },
	Defaults: value.MustParse(`{"count":0,"updatedAt":0}`),
	Schema:   map[string]schema.Schema{"updatedAt": schema.Date},
	UseIncoming: func(_, _ schema.Meta, existing, incoming value.Value) bool {
		return number(existing.Get("updatedAt")) <= number(incoming.Get("updatedAt"))
	},
	ShouldReorder: func(_, _ schema.Meta, _, _ value.Value) bool { return false },
}

// number returns a Number's value; 0 for anything else.
func number(v value.Value) float64 {
	f, _ := v.Float()
	return f
}

// Counter holds the endpoints of /api/count.
type Counter struct {
	// Get reads the count.
	Get *df.Endpoint[*Count]
	// Increment adds one. Its optimistic response is the cached count plus
	// one, stamped with the moment the click happened; when the count is
	// not cached yet it applies nothing.
	Increment *df.Endpoint[*Count]
}

func newCounter(prefix string) (*Counter, error) {
	get, err := rest.New(rest.Options{URLPrefix: prefix, Path: "/api/count", Name: "getCount", Schema: CountEntity})
	if err != nil {
		return nil, err
	}
	inc, err := rest.New(rest.Options{
		URLPrefix: prefix,
		Path:      "/api/count/increment",
		Method:    "POST",
		Name:      "increment",
		Schema:    CountEntity,
		GetOptimisticResponse: func(snap endpoint.Snapshot, _ value.Value, _ any) (value.Value, error) {
			r := snap.GetResponse(get, value.Obj())
			if r.Data.IsUndefined() {
				return value.Undef, endpoint.ErrAbortOptimistic
			}
			return value.Obj(
				value.M("count", value.Num(number(r.Data.Get("count"))+1)),
				value.M("updatedAt", value.Int(snap.FetchedAt())),
			), nil
		},
	})
	if err != nil {
		return nil, err
	}
	c := &Counter{}
	if c.Get, err = df.Wrap[*Count](get); err != nil {
		return nil, err
	}
	if c.Increment, err = df.Wrap[*Count](inc); err != nil {
		return nil, err
	}
	return c, nil
}

// IncrementBody is the body of an increment: the client's time of the
// click, which the server answers as the count's updatedAt (never earlier
// than the previous one). That puts responses on the scale of the
// optimistic updates' snap.FetchedAt, which Count's UseIncoming compares
// them with: the server's own, later time of applying an increment would
// make its response look newer than the clicks made meanwhile, and the
// count shown would go back.
func IncrementBody(now time.Time) map[string]int64 {
	return map[string]int64{"updatedAt": now.UnixMilli()}
}
