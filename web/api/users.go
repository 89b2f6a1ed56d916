package api

import "net/http"

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

func (st *state) listUsers(*http.Request) reply {
	return jsonReply(http.StatusOK, st.users.all())
}

func (st *state) userReply(id string) reply {
	u, ok := st.users.get(id)
	if !ok {
		return errorReply(http.StatusNotFound, "user %s not found", id)
	}
	return jsonReply(http.StatusOK, u)
}

func (st *state) getUser(r *http.Request) reply {
	return st.userReply(r.PathValue("id"))
}

func (st *state) currentUser(*http.Request) reply {
	return st.userReply(currentUserID)
}

// makeManager promotes a user. It takes no body and is idempotent.
func (st *state) makeManager(r *http.Request) reply {
	id := r.PathValue("id")
	u, ok := st.users.get(id)
	if !ok {
		return errorReply(http.StatusNotFound, "user %s not found", id)
	}
	u.IsManager = true
	st.users.put(id, u)
	return jsonReply(http.StatusOK, u)
}
