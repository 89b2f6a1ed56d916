package controller_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/datafetch/datafetch/core/controller"
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestSetWritesEntitiesWithoutARequest: Set stores a record (and what it
// nests) as a response would, a stored list that holds it reads the
// change, subscribers are told, and no result key is stored.
func TestSetWritesEntitiesWithoutARequest(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":1,"title":"old","author":{"id":7,"name":"Ann"}}]`)
	var told []controller.State
	stop, err := r.c.Subscribe(r.articles, obj(`{}`), func(s controller.State) { told = append(told, s) })
	require.NoError(t, err)
	defer stop()
	before := len(told)

	require.NoError(t, r.c.Set(r.article, nil, obj(`{"id":1,"title":"pushed","author":{"id":7,"name":"Annie"}}`)))

	list := r.c.GetResponse(r.articles, obj(`{}`)).Data
	assert.Equal(t, "pushed", list.Elems()[0].Get("title").Str())
	assert.Equal(t, "Annie", list.Elems()[0].Get("author").Get("name").Str(), "the nested entity is written too")
	assert.Greater(t, len(told), before, "the subscriber heard the change")
	assert.Equal(t, 7.0, num(r.get(t, r.article, obj(`{"id":1}`)).Get("author").Get("id")), "ctrl.get reads it")
	state := r.c.State()
	assert.Equal(t, 1, len(state.Get("endpoints").Members()), "no result was stored for the set")
	meta := state.Get("entitiesMeta").Get("Article").Get("1")
	assert.Greater(t, num(meta.Get("expiresAt")), num(meta.Get("date")), "stamped as a response, with the data expiry")
}

func TestSetRefusesWhatAResponseWouldBeRefusedFor(t *testing.T) {
	r := newQueryRig(t)
	r.set(t, r.articles, `{}`, `[{"id":1,"title":"kept"}]`)
	err := r.c.Set(r.article, nil, obj(`{"title":"no id"}`))
	require.ErrorIs(t, err, schema.ErrNoPK)
	assert.Contains(t, err.Error(), "set")
	require.Error(t, r.c.Set(nil, nil, obj(`{}`)))
	assert.Equal(t, "kept", r.get(t, r.article, obj(`{"id":1}`)).Get("title").Str(), "the store is as it was")
}

// TestSetGivesItsArgsToEntityHooks: the args of Set reach an entity's
// PKFunc and Process as a request's args ([params, body]), as
// data-client's ctrl.set(Entity, ...args, value) gives them to pk and
// process.
func TestSetGivesItsArgsToEntityHooks(t *testing.T) {
	var pkArgs, processArgs string
	member := &schema.Entity{Key: "Member", Defaults: value.MustParse(`{"id":null,"org":""}`),
		PKFunc: func(rec, _ value.Value, _ string, args value.Value) (string, bool, error) {
			pkArgs = args.JSON()
			return rec.Get("id").Str() + "@" + args.Elems()[0].Get("org").Str(), true, nil
		},
		Process: func(rec, _ value.Value, _ string, args value.Value) (value.Value, error) {
			processArgs = args.JSON()
			return rec, nil
		}}
	c := controller.New(controller.Options{})
	defer c.Close()
	require.NoError(t, c.Set(member, []value.Value{obj(`{"org":"acme"}`), obj(`{"x":1}`)}, obj(`{"id":"ann"}`)))
	assert.JSONEq(t, `[{"org":"acme"},{"x":1}]`, pkArgs)
	assert.JSONEq(t, `[{"org":"acme"},{"x":1}]`, processArgs)
	assert.Contains(t, c.State().Get("entities").Get("Member").JSON(), `"ann@acme"`)
}
