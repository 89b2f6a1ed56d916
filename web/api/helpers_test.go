package api_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/api"
)

// fixture is the demo's API served over a real loopback connection.
type fixture = apitest.Fixture[*api.Server]

// newFixture serves a demo API made with opts until the end of t; a nil
// opts.Now is apitest.FixedNow.
func newFixture(t *testing.T, opts api.Options) *fixture {
	t.Helper()
	return apitest.Start(t, opts, api.New)
}

// keys returns the member names of a decoded object.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

func itoa(n int) string { return strconv.Itoa(n) }
