package sampleapi

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/datafetch/datafetch/web/restserver"
)

// Article is an article record as served by /articles. Its id is a string;
// Author is a user id or null.
type Article struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Content   string   `json:"content"`
	Published bool     `json:"published"`
	Tags      []string `json:"tags"`
	Author    *int     `json:"author"`
	CreatedAt string   `json:"createdAt"` // ISO 8601, set by the server
}

// applyArticleFields copies the editable members present in fields onto a.
// A null member resets that field to its default. id and createdAt belong to
// the server and unknown members are ignored, so a client may send its
// temporary id or extra bookkeeping without being refused.
func applyArticleFields(a *Article, fields map[string]json.RawMessage) *restserver.Reply {
	// Sorted, so a body with several bad fields always names the same one.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		raw := fields[name]
		var rp *restserver.Reply
		switch name {
		case "title":
			a.Title = ""
			rp = restserver.DecodeField(name, raw, &a.Title)
		case "content":
			a.Content = ""
			rp = restserver.DecodeField(name, raw, &a.Content)
		case "published":
			a.Published = false
			rp = restserver.DecodeField(name, raw, &a.Published)
		case "tags":
			var tags []string
			rp = restserver.DecodeField(name, raw, &tags)
			if tags == nil {
				tags = []string{}
			}
			a.Tags = tags
		case "author":
			var author *int
			rp = restserver.DecodeField(name, raw, &author)
			a.Author = author
		}
		if rp != nil {
			return rp
		}
	}
	return nil
}

// articleSpec is what is particular to articles in their [Collection]:
// string ids, a creation time from now that a replace keeps.
func articleSpec(now func() time.Time) restserver.CollectionSpec[Article] {
	return restserver.CollectionSpec[Article]{
		Noun: "article",
		Seed: seedArticles,
		ID:   func(a Article) string { return a.ID },
		Blank: func(old *Article) Article {
			if old == nil {
				return Article{Tags: []string{}, CreatedAt: isoTime(now())}
			}
			return Article{ID: old.ID, Tags: []string{}, CreatedAt: old.CreatedAt}
		},
		SetID: func(a *Article, n int) { a.ID = strconv.Itoa(n) },
		Apply: applyArticleFields,
	}
}
