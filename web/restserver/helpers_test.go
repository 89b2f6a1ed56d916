package restserver_test

import (
	"testing"

	"github.com/datafetch/datafetch/test/fixture/apitest"
	"github.com/datafetch/datafetch/web/sampleapi"
)

// The pipeline and the controls are tested on the sample API
// (web/sampleapi), the restserver the demo and the tests serve: its
// articles and counter are the data the requests change.

// fixture is a sample API served over a real loopback connection.
type fixture = apitest.Fixture[*sampleapi.Server]

// newFixture serves a sample API made with opts until the end of t; a nil
// opts.Now is apitest.FixedNow.
func newFixture(t *testing.T, opts sampleapi.Options) *fixture {
	t.Helper()
	return apitest.Start(t, opts, sampleapi.New)
}
