package sampleapi

import (
	"net/http"

	"github.com/datafetch/datafetch/web/restserver"
)

// Profile is a profile record as served by /profiles; its id is a string.
type Profile struct {
	ID       string `json:"id"`
	FullName string `json:"fullName"`
	Bio      string `json:"bio"`
}

func (st *state) listProfiles(*http.Request) restserver.Reply {
	return restserver.JSONReply(http.StatusOK, st.profiles)
}

func (st *state) getProfile(r *http.Request) restserver.Reply {
	id := r.PathValue("id")
	for _, p := range st.profiles {
		if p.ID == id {
			return restserver.JSONReply(http.StatusOK, p)
		}
	}
	return restserver.ErrorReply(http.StatusNotFound, "profile %s not found", id)
}
