package integration

import (
	"github.com/datafetch/datafetch/core/schema"
	"github.com/datafetch/datafetch/core/value"
)

// The entities of the seed's examples (comments, birthdays, articles, the
// legacy article, posts, profiles, the counter), shaped after the fixture
// API's records.
// Some carry a default for a field the server never sends, so that tests
// can see defaults being filled in.

var commentE = &schema.Entity{
	Key:      "Comment",
	Defaults: obj(`{"postId":0,"id":null,"name":"","email":"","body":""}`),
}

var userE = &schema.Entity{
	Key:      "User",
	Defaults: obj(`{"id":null,"name":"","email":"","isManager":false}`),
}

// profileE: the server sends no avatar, so it is always the default.
var profileE = &schema.Entity{
	Key:      "Profile",
	Defaults: obj(`{"id":null,"fullName":"","bio":"","avatar":""}`),
}

// articleE nests the author (a user id on the wire) and reads createdAt as a
// date; summary is never sent.
var articleE = &schema.Entity{
	Key:      "Article",
	Defaults: obj(`{"id":null,"title":"","content":"","published":false,"tags":[],"author":null,"createdAt":0,"summary":""}`),
	Schema:   map[string]schema.Schema{"author": userE, "createdAt": schema.Date},
}

// plainArticleE is the article (id, title, content, published) with no nested schema, so that its
// read form is exactly the server's record.
var plainArticleE = &schema.Entity{
	Key:      "Article",
	Defaults: obj(`{"id":null,"title":"","content":"","published":false}`),
}

// legacyE is the legacy 6.0 article; its numeric id is the pk as a string.
var legacyE = &schema.Entity{
	Key:      "LegacyArticle",
	Defaults: obj(`{"id":null,"content":"","author":null,"contributors":[]}`),
}

var postE = &schema.Entity{
	Key:      "Post",
	Defaults: obj(`{"id":null,"title":"","content":""}`),
}

func singleton(value.Value, value.Value, string, value.Value) (string, bool, error) {
	return "SINGLETON", true, nil
}

// countE is the singleton counter without ordering.
var countE = &schema.Entity{
	Key:      "Count",
	PKFunc:   singleton,
	Defaults: obj(`{"count":0}`),
}

// orderedCountE is the counter's ordering variant (useIncoming keeps a
// record only when existing.updatedAt <= incoming.updatedAt): updatedAt is a
// date, so the server's ISO strings and the client's milliseconds compare,
// and incoming data older than the stored data is discarded.
var orderedCountE = &schema.Entity{
	Key:      "Count",
	PKFunc:   singleton,
	Defaults: obj(`{"count":0,"updatedAt":0}`),
	Schema:   map[string]schema.Schema{"updatedAt": schema.Date},
	UseIncoming: func(_, _ schema.Meta, existing, incoming value.Value) bool {
		return num(existing, "updatedAt") <= num(incoming, "updatedAt")
	},
}

// birthdayDefaultDate stands for the birthday's default date, "the current
// date".
const birthdayDefaultDate = 1_700_000_000_000

var birthdayE = &schema.Entity{
	Key:      "Birthday",
	Defaults: value.Obj(value.M("id", value.NullV), value.M("name", value.Str("")), value.M("image", value.Str("")), value.M("source", value.Str("")), value.M("date", value.Int(birthdayDefaultDate))),
	Schema:   map[string]schema.Schema{"date": schema.Date},
}

// reorderedCountE is orderedCountE with the merge order decided by
// updatedAt as well. With UseIncoming alone, the default ShouldReorder
// (incoming.fetchedAt < existing.fetchedAt) still lets the fields of a
// response to a later-started request win over newer data from an
// earlier-started one, which the server may have applied after it.
var reorderedCountE = &schema.Entity{
	Key:         "Count",
	PKFunc:      singleton,
	Defaults:    orderedCountE.Defaults,
	Schema:      map[string]schema.Schema{"updatedAt": schema.Date},
	UseIncoming: orderedCountE.UseIncoming,
	ShouldReorder: func(_, _ schema.Meta, existing, incoming value.Value) bool {
		return num(incoming, "updatedAt") < num(existing, "updatedAt")
	},
}
