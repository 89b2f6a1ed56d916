package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
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
func applyArticleFields(a *Article, fields map[string]json.RawMessage) *reply {
	// Sorted, so a body with several bad fields always names the same one.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		raw := fields[name]
		var rp *reply
		switch name {
		case "title":
			a.Title = ""
			rp = decodeField(name, raw, &a.Title)
		case "content":
			a.Content = ""
			rp = decodeField(name, raw, &a.Content)
		case "published":
			a.Published = false
			rp = decodeField(name, raw, &a.Published)
		case "tags":
			var tags []string
			rp = decodeField(name, raw, &tags)
			if tags == nil {
				tags = []string{}
			}
			a.Tags = tags
		case "author":
			var author *int
			rp = decodeField(name, raw, &author)
			a.Author = author
		}
		if rp != nil {
			return rp
		}
	}
	return nil
}

func (st *state) listArticles(*http.Request) reply {
	return jsonReply(http.StatusOK, st.articles.all())
}

func (st *state) article(r *http.Request) (Article, *reply) {
	id := r.PathValue("id")
	a, ok := st.articles.get(id)
	if !ok {
		rp := errorReply(http.StatusNotFound, "article %s not found", id)
		return Article{}, &rp
	}
	return a, nil
}

func (st *state) getArticle(r *http.Request) reply {
	a, rp := st.article(r)
	if rp != nil {
		return *rp
	}
	return jsonReply(http.StatusOK, a)
}

// createArticle stores a new article under the next server id, whatever id
// the client sent: that is how a client learns the real id of an
// optimistically created record.
func (st *state) createArticle(r *http.Request) reply {
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	a := Article{Tags: []string{}, CreatedAt: isoTime(st.now())}
	if rp := applyArticleFields(&a, fields); rp != nil {
		return *rp
	}
	a.ID = strconv.Itoa(st.nextArticleID)
	st.nextArticleID++
	st.articles.put(a.ID, a)
	return jsonReply(http.StatusCreated, a)
}

// replaceArticle resets every editable field to the body or its default,
// keeping only the id and creation time.
func (st *state) replaceArticle(r *http.Request) reply {
	old, rp := st.article(r)
	if rp != nil {
		return *rp
	}
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	a := Article{ID: old.ID, Tags: []string{}, CreatedAt: old.CreatedAt}
	if rp := applyArticleFields(&a, fields); rp != nil {
		return *rp
	}
	st.articles.put(a.ID, a)
	return jsonReply(http.StatusOK, a)
}

// patchArticle changes only the fields sent and answers the whole record,
// id included, so the client's normalized cache can merge it.
func (st *state) patchArticle(r *http.Request) reply {
	a, rp := st.article(r)
	if rp != nil {
		return *rp
	}
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	if rp := applyArticleFields(&a, fields); rp != nil {
		return *rp
	}
	st.articles.put(a.ID, a)
	return jsonReply(http.StatusOK, a)
}

func (st *state) deleteArticle(r *http.Request) reply {
	id := r.PathValue("id")
	if !st.articles.remove(id) {
		return errorReply(http.StatusNotFound, "article %s not found", id)
	}
	return noContent()
}
