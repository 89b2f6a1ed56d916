package api

import (
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strconv"
)

// LegacyArticle is a record of the legacy article resource under /article/,
// which uses numeric ids, a nullable author and a list of contributor ids.
type LegacyArticle struct {
	ID           int    `json:"id"`
	Content      string `json:"content"`
	Author       *int   `json:"author"`
	Contributors []int  `json:"contributors"`
}

// applyLegacyFields is applyArticleFields for the legacy shape.
func applyLegacyFields(a *LegacyArticle, fields map[string]json.RawMessage) *reply {
	// Sorted, so a body with several bad fields always names the same one.
	for _, name := range slices.Sorted(maps.Keys(fields)) {
		raw := fields[name]
		var rp *reply
		switch name {
		case "content":
			a.Content = ""
			rp = decodeField(name, raw, &a.Content)
		case "author":
			var author *int
			rp = decodeField(name, raw, &author)
			a.Author = author
		case "contributors":
			var ids []int
			rp = decodeField(name, raw, &ids)
			if ids == nil {
				ids = []int{}
			}
			a.Contributors = ids
		}
		if rp != nil {
			return rp
		}
	}
	return nil
}

func (st *state) listLegacy(*http.Request) reply {
	return jsonReply(http.StatusOK, st.legacy.all())
}

func (st *state) legacyArticle(r *http.Request) (LegacyArticle, *reply) {
	id := r.PathValue("id")
	a, ok := st.legacy.get(id)
	if !ok {
		rp := errorReply(http.StatusNotFound, "article %s not found", id)
		return LegacyArticle{}, &rp
	}
	return a, nil
}

func (st *state) getLegacy(r *http.Request) reply {
	a, rp := st.legacyArticle(r)
	if rp != nil {
		return *rp
	}
	return jsonReply(http.StatusOK, a)
}

func (st *state) createLegacy(r *http.Request) reply {
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	a := LegacyArticle{Contributors: []int{}}
	if rp := applyLegacyFields(&a, fields); rp != nil {
		return *rp
	}
	a.ID = st.nextLegacyID
	st.nextLegacyID++
	st.legacy.put(strconv.Itoa(a.ID), a)
	return jsonReply(http.StatusCreated, a)
}

func (st *state) replaceLegacy(r *http.Request) reply {
	old, rp := st.legacyArticle(r)
	if rp != nil {
		return *rp
	}
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	a := LegacyArticle{ID: old.ID, Contributors: []int{}}
	if rp := applyLegacyFields(&a, fields); rp != nil {
		return *rp
	}
	st.legacy.put(strconv.Itoa(a.ID), a)
	return jsonReply(http.StatusOK, a)
}

func (st *state) patchLegacy(r *http.Request) reply {
	a, rp := st.legacyArticle(r)
	if rp != nil {
		return *rp
	}
	fields, rp := decodeObject(r)
	if rp != nil {
		return *rp
	}
	if rp := applyLegacyFields(&a, fields); rp != nil {
		return *rp
	}
	st.legacy.put(strconv.Itoa(a.ID), a)
	return jsonReply(http.StatusOK, a)
}

func (st *state) deleteLegacy(r *http.Request) reply {
	id := r.PathValue("id")
	if !st.legacy.remove(id) {
		return errorReply(http.StatusNotFound, "article %s not found", id)
	}
	return noContent()
}
