package persist_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/endpoint"
	"github.com/datafetch/datafetch/core/rest"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
	"github.com/datafetch/datafetch/web/browser/persist"
)

// Persistence's one policy (core/persist) runs behind this package, for Go
// front ends, and behind df.persist (jsbridge/js/internal/persist.mjs, over
// the bridge), each with its own storage I/O and options: either restores
// what the other kept. testdata/go.json is what Go
// writes for a known controller, and testdata/js.json what JavaScript
// writes for its twin; each side checks its own file is current (-update
// here, UPDATE=1 for test/node/persist-cross.test.mjs) and restores the
// other's.

var update = flag.Bool("update", false, "rewrite testdata/go.json instead of checking it")

// crossSavedAt is the clock both sides write at, in ms since the epoch;
// they restore a second later.
const crossSavedAt = 1_735_689_600_000

// crossEndpoint is the endpoint both sides declare: the same name, path and
// prefix give the same key, and the same entity the same table.
func crossEndpoint(t *testing.T) *rest.Endpoint {
	t.Helper()
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":"","title":""}`)}
	ep, err := rest.New(rest.Options{Name: "article", Path: "/articles/:id", URLPrefix: "http://api.test", Schema: article})
	require.NoError(t, err)
	return ep
}

func crossOptions(store *memory, at time.Time) persist.Options {
	ts := &timers{}
	return persist.Options{Storage: store, Key: "datafetch", Now: func() time.Time { return at }, AfterFunc: ts.AfterFunc}
}

func TestGoWritesTheSharedFormat(t *testing.T) {
	at := time.UnixMilli(crossSavedAt)
	store := &memory{items: map[string]string{}}
	ts := &timers{}
	opts := crossOptions(store, at)
	opts.AfterFunc = ts.AfterFunc
	c := controller.New(controller.Options{Now: func() time.Time { return at }})
	p, err := persist.Start(c, opts)
	require.NoError(t, err)
	defer p.Stop()
	ep := crossEndpoint(t)
	require.NoError(t, c.SetResponse(ep, value.Obj(value.M("id", value.Str("1"))), value.MustParse(`{"id":"1","title":"Written by Go"}`)))
	ts.fire()
	text, ok := store.items["datafetch"]
	require.True(t, ok, "written after the change")

	file := filepath.Join("testdata", "go.json")
	if *update {
		require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	}
	want, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, string(want), text, "testdata/go.json is not current: go test ./web/browser/persist -run TestGoWritesTheSharedFormat -update")
}

func TestGoRestoresWhatJavaScriptWrote(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("testdata", "js.json"))
	require.NoError(t, err, "written by test/node/persist-cross.test.mjs (UPDATE=1)")
	store := &memory{items: map[string]string{"datafetch": string(text)}}
	at := time.UnixMilli(crossSavedAt + 1000)
	c := controller.New(controller.Options{Now: func() time.Time { return at }})
	p, err := persist.Start(c, crossOptions(store, at))
	require.NoError(t, err)
	defer p.Stop()
	r := c.GetResponse(crossEndpoint(t), value.Obj(value.M("id", value.Str("1"))))
	require.True(t, r.Data.Kind() == value.Object, "restored: %v", r.Data)
	assert.Equal(t, "Written by JavaScript", r.Data.Get("title").Str())
	assert.Equal(t, endpoint.Valid, r.ExpiryStatus, "restored as fresh as it was written")
}
