package api

import "net/http"

// Profile is a profile record as served by /profiles; its id is a string.
type Profile struct {
	ID       string `json:"id"`
	FullName string `json:"fullName"`
	Bio      string `json:"bio"`
}

func (st *state) listProfiles(*http.Request) reply {
	return jsonReply(http.StatusOK, st.profiles)
}

func (st *state) getProfile(r *http.Request) reply {
	id := r.PathValue("id")
	for _, p := range st.profiles {
		if p.ID == id {
			return jsonReply(http.StatusOK, p)
		}
	}
	return errorReply(http.StatusNotFound, "profile %s not found", id)
}
