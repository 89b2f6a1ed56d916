package sampleapi

import (
	"net/http"
	"strconv"

	"github.com/datafetch/datafetch/web/restserver"
)

// Comment is a comment record as served by /comments.
type Comment struct {
	PostID int    `json:"postId"`
	ID     int    `json:"id"`
	Name   string `json:"name"`
	Email  string `json:"email"`
	Body   string `json:"body"` // several lines separated by "\n"
}

// wrapped is the {"data": ...} envelope of the /wrapped/ routes.
type wrapped struct {
	Data any `json:"data"`
}

// filterComments returns all comments, or those of one post when ?postId is given.
func (st *state) filterComments(r *http.Request) ([]Comment, *restserver.Reply) {
	q := r.URL.Query().Get("postId")
	if q == "" {
		return st.comments, nil
	}
	postID, err := strconv.Atoi(q)
	if err != nil {
		rp := restserver.ErrorReply(http.StatusBadRequest, "postId=%q is not a number", q)
		return nil, &rp
	}
	out := []Comment{}
	for _, c := range st.comments {
		if c.PostID == postID {
			out = append(out, c)
		}
	}
	return out, nil
}

func (st *state) comment(r *http.Request) (Comment, *restserver.Reply) {
	id := r.PathValue("id")
	for _, c := range st.comments {
		if strconv.Itoa(c.ID) == id {
			return c, nil
		}
	}
	rp := restserver.ErrorReply(http.StatusNotFound, "comment %s not found", id)
	return Comment{}, &rp
}

func (st *state) listComments(r *http.Request) restserver.Reply {
	cs, rp := st.filterComments(r)
	if rp != nil {
		return *rp
	}
	return restserver.JSONReply(http.StatusOK, cs)
}

func (st *state) getComment(r *http.Request) restserver.Reply {
	c, rp := st.comment(r)
	if rp != nil {
		return *rp
	}
	return restserver.JSONReply(http.StatusOK, c)
}

func (st *state) listWrappedComments(r *http.Request) restserver.Reply {
	cs, rp := st.filterComments(r)
	if rp != nil {
		return *rp
	}
	return restserver.JSONReply(http.StatusOK, wrapped{Data: cs})
}

func (st *state) getWrappedComment(r *http.Request) restserver.Reply {
	c, rp := st.comment(r)
	if rp != nil {
		return *rp
	}
	return restserver.JSONReply(http.StatusOK, wrapped{Data: c})
}
