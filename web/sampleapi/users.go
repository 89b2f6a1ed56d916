package sampleapi

import (
	"net/http"

	"github.com/datafetch/datafetch/web/restserver"
)

// User is a user record as served by /users and /current_user/.
type User struct {
	ID        int    `json:"id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	IsManager bool   `json:"isManager"`
}

// currentUserID is the user /current_user/ answers with; the fixtures have
// no authentication, so "logged in" is fixed.
const currentUserID = "1"

func (st *state) listUsers(*http.Request) restserver.Reply {
	return restserver.JSONReply(http.StatusOK, st.users.All())
}

func (st *state) userReply(id string) restserver.Reply {
	u, ok := st.users.Get(id)
	if !ok {
		return restserver.ErrorReply(http.StatusNotFound, "user %s not found", id)
	}
	return restserver.JSONReply(http.StatusOK, u)
}

func (st *state) getUser(r *http.Request) restserver.Reply {
	return st.userReply(r.PathValue("id"))
}

func (st *state) currentUser(*http.Request) restserver.Reply {
	return st.userReply(currentUserID)
}

// makeManager promotes a user. It takes no body and is idempotent.
func (st *state) makeManager(r *http.Request) restserver.Reply {
	id := r.PathValue("id")
	u, ok := st.users.Get(id)
	if !ok {
		return restserver.ErrorReply(http.StatusNotFound, "user %s not found", id)
	}
	u.IsManager = true
	st.users.Put(id, u)
	return restserver.JSONReply(http.StatusOK, u)
}
