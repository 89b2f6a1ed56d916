package resources

import (
	"github.com/datafetch/datafetch/core/df"
	"github.com/datafetch/datafetch/core/rest"
)

// Profile is a public profile; its id is a string.
type Profile struct {
	ID       string `df:"id,pk"`
	FullName string `df:"fullName"`
	Bio      string `df:"bio"`
}

// Profiles is the profile resource on /profiles/:id.
type Profiles struct {
	*df.Resource[Profile]
}

func newProfiles(prefix string) (*Profiles, error) {
	r, err := df.NewResource[Profile](rest.ResourceOptions{URLPrefix: prefix, Path: "/profiles/:id"})
	if err != nil {
		return nil, err
	}
	return &Profiles{Resource: r}, nil
}
