// Package storetest helps tests and benchmarks put responses in a store the
// way the controller does, without a controller.
package storetest

import (
	"testing"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/store"
	"github.com/datafetch/datafetch/core/value"
)

// Apply parses body, normalizes it by s and stores it under key, fetched at
// at and fresh for a minute. It fails tb on bad input.
func Apply(tb testing.TB, st *store.Store, key string, s schema.Schema, body []byte, at int64) {
	tb.Helper()
	v, err := value.ParseLazy(string(body))
	if err != nil {
		tb.Fatal(err)
	}
	n, err := schema.Normalize(s, v)
	if err != nil {
		tb.Fatal(err)
	}
	st.Apply(&store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities, Meta: Meta(at)})
}

// ApplyText is Apply with the write's Text set to body, as the controller
// stores a response it parsed from text (see store.Write.Text), which
// store.Reapply and store.ReapplyElem may then store again; params are
// the request's (the normalization's args, and the write's TextParams).
func ApplyText(tb testing.TB, st *store.Store, key string, s schema.Schema, body string, at int64, params value.Value) {
	tb.Helper()
	v, err := value.ParseLazy(body)
	if err != nil {
		tb.Fatal(err)
	}
	n, err := schema.NormalizeArgs(s, v, schema.Args{Params: params})
	if err != nil {
		tb.Fatal(err)
	}
	st.Apply(&store.Write{Key: key, Schema: s, Result: n.Result, Entities: n.Entities, Text: body, TextParams: params, Meta: Meta(at)})
}

// Meta is the meta Apply and ApplyText store with: fetched at at and
// fresh for a minute.
func Meta(at int64) schema.Meta {
	return schema.Meta{Date: at, FetchedAt: at, ExpiresAt: at + 60_000}
}

// ReapplyElem stores body under key as the controller does when
// st.MayReapplyElem finds it differs from the text stored there in a run
// of elements of its list: that run normalized alone (with params), then
// st.ReapplyElem. It reports false, having changed nothing, when either
// declines (the controller then applies body whole).
func ReapplyElem(tb testing.TB, st *store.Store, key string, s schema.Schema, body string, at int64, params value.Value) bool {
	tb.Helper()
	e, ok := st.MayReapplyElem(key, body, params)
	if !ok {
		return false
	}
	shape, ok := schema.ElementWise(s)
	v, err := value.ParseLazy(e.Text)
	if !ok || err != nil || v.Kind() != value.Array {
		return false
	}
	n, err := schema.NormalizeArgs(shape.List, v, schema.Args{Params: params})
	if err != nil {
		return false
	}
	return st.ReapplyElem(e, s, Meta(at), n.Result, n.Entities)
}
