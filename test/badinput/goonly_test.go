package badinput

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// goOnlyCases are rows of the matrix (run by TestBadInput like the rest)
// that came from the bad-input table test/integration once had and that
// test/node/badinput.test.mjs has no JavaScript case for yet. That suite
// checks that every case named in matrix_test.go has one, so these wait
// here until it does; then they move into cases().
func goOnlyCases() []badCase {
	return []badCase{
		parseFailure("/bad/html", "400").
			with("header-token list with a body that is not JSON", rest.Options{Name: "linkedHTML", Path: "/bad/html",
				Schema: schema.ObjectOf(schema.Nested("results", schema.ArrayOf(commentE)), schema.Default("link", value.Str(""))),
				Fetch:  linkFetch}, value.Undef),
		accepted("204 where an envelope object is expected", rest.Options{Name: "emptyEnvelope", Path: "/bad/empty",
			Schema: schema.ObjectOf(schema.Nested("data", commentE))}, value.Undef, storedNull),
		accepted("204 from an endpoint without a schema", rest.Options{Name: "emptyNoSchema", Path: "/bad/empty"}, value.Undef, storedNull),
		schemaFailure("/bad/nopk", "Comment at $.data[0]", "primary key").
			with("record with no pk inside an envelope", rest.Options{Name: "noPKNested", Path: "/bad/nopk",
				Schema: schema.ObjectOf(schema.Nested("data", schema.ArrayOf(commentE))),
				Process: func(v, _ value.Value) (value.Value, error) {
					return value.Obj(value.M("data", value.Arr(v))), nil
				}}, value.Undef),
		{name: "a server that never answers, with a timeout", opts: rest.Options{Name: "hangs", Path: "/bad/hang", Schema: commentE, Timeout: 50 * time.Millisecond},
			params: value.Undef, keyed: true, status: 0, errName: "TimeoutError", want: []string{"/bad/hang", "timed out", "50ms"},
			check: func(t *testing.T, e *env, v value.Value, err error) { assert.ErrorIs(t, err, context.DeadlineExceeded) }},
	}
}
