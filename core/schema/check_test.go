package schema_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// TestCheckNormalized: what Normalize makes passes, anything else is an
// error naming where in the value it is.
func TestCheckNormalized(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null}`)}
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null}`), Schema: map[string]schema.Schema{"author": user}}
	union := &schema.Union{Schemas: map[string]schema.Schema{"user": user, "article": article}, Attribute: "type"}
	polyObj := &schema.Union{Schemas: map[string]schema.Schema{"user": user, "note": schema.ObjectOf(schema.Nested("user", user))}, Attribute: "type"}
	envelope := schema.ObjectOf(schema.Nested("data", schema.ArrayOf(article)), schema.Nested("next", schema.Date))
	coll := schema.CollectionOf(schema.ArrayOf(article))
	for _, tc := range []struct {
		name string
		s    schema.Schema
		v    string
		err  string
	}{
		{"a pk", article, `"1"`, ""},
		{"a number pk", article, `1`, ""},
		{"null", article, `null`, ""},
		{"a record", article, `{"id":"1"}`, "an object, not a pk of Article (a string or a number)"},
		{"a list", schema.ArrayOf(article), `["1","2",null]`, ""},
		{"a string for a list", schema.ArrayOf(article), `"1"`, "a string, not an array"},
		{"a record in a list", schema.ArrayOf(article), `["1",{"id":"2"}]`, "[1]: an object, not a pk of Article (a string or a number)"},
		{"an envelope", envelope, `{"data":["1"],"next":1700000000000,"other":{"x":1}}`, ""},
		{"a bad envelope", envelope, `{"data":[["1"]]}`, ".data[0]: an array, not a pk of Article (a string or a number)"},
		{"a date as text", envelope, `{"next":"2024-01-01"}`, ".next: a string, not a date (epoch milliseconds)"},
		{"values", schema.ValuesOf(article), `{"a":"1","my key":"2"}`, ""},
		{"bad values", schema.ValuesOf(article), `{"a":"1","my key":true}`, `["my key"]: a boolean, not a pk of Article (a string or a number)`},
		{"a union member", union, `{"id":"1","schema":"user"}`, ""},
		{"a record no union member took, kept", union, `{"id":"1","schema":"robot"}`, ""},
		{"a union's non-entity member", polyObj, `{"id":{"when":"x"},"schema":"note"}`, ""},
		{"a union's non-entity member, bad", polyObj, `{"id":{"when":"x","user":{}},"schema":"note"}`, ".id.user: an object, not a pk of User (a string or a number)"},
		{"invalidate of a union", schema.InvalidateOfUnion(union), `{"id":"1","schema":"user"}`, ""},
		{"a union member without id", union, `{"schema":"user"}`, ".id: missing, not a pk of User (a string or a number)"},
		{"a collection", coll, `"{}"`, ""},
		{"a collection's list as its result", coll, `["1"]`, "an array, not a pk of collection([Article]) (a string or a number)"},
		{"invalidate", schema.InvalidateOf(article), `"1"`, ""},
		{"no schema", nil, `{"anything":[1]}`, ""},
	} {
		err := schema.CheckNormalized(tc.s, value.MustParse(tc.v))
		if tc.err == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		assert.EqualError(t, err, tc.err, tc.name)
	}
}

// TestCheckRecord: a record is an object whose pk is its key, with its
// nested entities as pks; a Collection's record is its list of pks.
func TestCheckRecord(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null}`)}
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null}`), Schema: map[string]schema.Schema{"author": user}}
	slug := &schema.Entity{Key: "Page", PK: "slug", Defaults: value.MustParse(`{"slug":null}`)}
	computed := &schema.Entity{Key: "Pair", Defaults: value.MustParse(`{}`),
		PKFunc: func(rec, _ value.Value, _ string, _ value.Value) (string, bool, error) {
			return rec.Get("a").Str() + "-" + rec.Get("b").Str(), true, nil
		}}
	for _, tc := range []struct {
		name string
		e    *schema.Entity
		pk   string
		rec  string
		err  string
	}{
		{"its own pk", article, "1", `{"id":"1","author":"u"}`, ""},
		{"a number pk", article, "1", `{"id":1}`, ""},
		{"another pk", article, "1", `{"id":"2"}`, `.id: "2", not the record's key "1"`},
		{"no pk", article, "1", `{"title":"x"}`, ".id: missing: the record has no primary key"},
		{"an empty pk", article, "", `{"id":""}`, ".id: missing: the record has no primary key"},
		{"a pk that is an object", article, "1", `{"id":{"n":1}}`, ".id: an object, not a primary key (a string or a number)"},
		{"a nested record", article, "1", `{"id":"1","author":{"id":"u"}}`, ".author: an object, not a pk of User (a string or a number)"},
		{"not an object", article, "1", `["1"]`, "an array, not a record (an object)"},
		{"a pk field of its own", slug, "home", `{"slug":"home"}`, ""},
		{"another pk field", slug, "home", `{"slug":"away","id":"home"}`, `.slug: "away", not the record's key "home"`},
		{"a computed pk is not asked", computed, "x", `{"a":"1","b":"2"}`, ""},
	} {
		err := tc.e.CheckRecord(tc.pk, value.MustParse(tc.rec))
		if tc.err == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		assert.EqualError(t, err, tc.err, tc.name)
	}
}

// TestEachEntity: every entity once, nested and cyclic ones too.
func TestEachEntity(t *testing.T) {
	user := &schema.Entity{Key: "User", Defaults: value.MustParse(`{"id":null}`)}
	article := &schema.Entity{Key: "Article", Defaults: value.MustParse(`{"id":null}`), Schema: map[string]schema.Schema{"author": user}}
	user.Schema = map[string]schema.Schema{"articles": schema.ArrayOf(article)}
	var keys []string
	schema.EachEntity(schema.ObjectOf(schema.Nested("list", schema.CollectionOf(schema.ArrayOf(article)))), func(e *schema.Entity) {
		keys = append(keys, e.Key)
	})
	assert.ElementsMatch(t, []string{"[Article]", "Article", "User"}, keys)
}
