// Package resources declares the entities and endpoints of the demo's REST
// API (package sampleapi, served under a prefix by the demo server), as the
// resources folder of a data-client app does. The go-app demo reads and
// mutates everything through these endpoints and one controller.
package resources

import (
	"fmt"
	"strings"
)

// API holds every endpoint of the demo. Endpoints are immutable, so one API
// serves every component.
type API struct {
	// Prefix is the URL the REST API is mounted at, as
	// "http://127.0.0.1:8080/rest".
	Prefix string

	Articles  *Articles
	Counter   *Counter
	Posts     *Posts
	Comments  *Comments
	Profiles  *Profiles
	Users     *Users
	Birthdays *Birthdays
}

// New returns the endpoints of the API mounted at prefix, a full URL
// without a trailing slash. In a browser, Go's net/http needs a full URL:
// pass the page's origin followed by the mount path.
func New(prefix string) (*API, error) {
	prefix = strings.TrimRight(prefix, "/")
	a := &API{Prefix: prefix}
	var err error
	if a.Articles, err = newArticles(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Counter, err = newCounter(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Posts, err = newPosts(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Comments, err = newComments(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Profiles, err = newProfiles(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Users, err = newUsers(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	if a.Birthdays, err = newBirthdays(prefix); err != nil {
		return nil, fmt.Errorf("resources: %w", err)
	}
	return a, nil
}
