package sampleapi_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// fixture is the sample API served over a real loopback connection.
type fixture = apitest.Fixture[*sampleapi.Server]

// newFixture serves a sample API made with opts until the end of t; a nil
// opts.Now is apitest.FixedNow.
func newFixture(t *testing.T, opts sampleapi.Options) *fixture {
	t.Helper()
	return apitest.Start(t, opts, sampleapi.New)
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
